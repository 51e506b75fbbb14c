// A what-if configuration: the partition checked against the fabric, drains, lost hosts, and
// another topology.conf for Slurm while spans are still counted on the emitted one.
#include "simulate/whatif/whatif_case.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "base/input_error.h"
#include "simulate/whatif/whatif_policies.h"
#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("whatif case: the emitted tree and both Slurm setups over the same node table") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  CHECK(c.node_names().size() == 32);
  CHECK(c.no_topology->node_names() == c.node_names());
  CHECK(c.placed_with == "emitted topology.conf");
  CHECK(c.leaves.leaf_nodes.size() == c.emitted.switches.size());
  CHECK(c.leaves.leaves_spanned({0, 7}) == 1);
  CHECK(c.leaves.leaves_spanned({7, 8}) == 2);
}

TEST_CASE("whatif case: partition nodes the fabric lacks") {
  const Cluster cluster = oversubscribed_tree();
  WhatifSlurm slurm = partition_of(cluster);
  slurm.nodes.push_back({"gpu999", 1, 1});
  CHECK_THROWS_WITH_AS(make_whatif_case(cluster, slurm, {}), "--nodes: node gpu999 is not on the fabric", InputError);
  WhatifCaseSpec after;
  after.lost_hosts_are_down = true;
  const WhatifCase c = make_whatif_case(cluster, slurm, after);
  CHECK(c.down[c.slurm->node_index("gpu999")] == 1);
  CHECK(c.notes == std::vector<std::string>{"1 node lost every cable and counts as down"});
}

TEST_CASE("whatif case: drains") {
  const Cluster cluster = oversubscribed_tree();
  WhatifCaseSpec spec;
  spec.drained = {"gpu003"};
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), spec);
  CHECK(std::count(c.down.begin(), c.down.end(), 1) == 1);
  CHECK(c.down[c.slurm->node_index("gpu003")] == 1);
  spec.drained = {"x1"};
  CHECK_THROWS_WITH_AS(make_whatif_case(cluster, partition_of(cluster), spec), "--drain: node x1 is not in --nodes",
                       InputError);
}

TEST_CASE("whatif case: Slurm places with another topology.conf, spans count on the emitted one") {
  const auto path = std::filesystem::temp_directory_path() / "slurmtopo-whatif-alt.conf";
  // One "leaf" that mixes the first halves of two physical leaves.
  std::ofstream(path) << "SwitchName=mixed Nodes=gpu[001-004,009-012]\nSwitchName=rest Nodes=gpu[005-008,013-032]\n"
                         "SwitchName=top Switches=mixed,rest\n";
  const Cluster cluster = oversubscribed_tree();
  WhatifCaseSpec spec;
  spec.topology_file = path.string();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), spec);
  CHECK(c.placed_with == path.string());
  const PolicyPlacement p = place_by(c, Policy::Slurm, 8, std::vector<char>(32, 0), 1);
  CHECK(c.names_of(p.nodes).front() == "gpu001");
  CHECK(c.names_of(p.nodes).back() == "gpu012");
  CHECK(p.leaves == 2);  // the emitted tree's leaf001 and leaf002
  std::filesystem::remove(path);
}
