// The four policies on the same free nodes.
#include "simulate/whatif/whatif_policies.h"

#include <doctest/doctest.h>

#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

bool avoids(const std::vector<int>& nodes, const std::vector<char>& busy) {
  for (int n : nodes)
    if (busy[n]) return false;
  return true;
}

}  // namespace

TEST_CASE("whatif policies: each places the job on free nodes") {
  const Cluster cluster = oversubscribed_tree();
  WhatifCaseSpec spec;
  spec.drained = {"gpu010"};
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), spec);
  const std::vector<char> busy = busy_nodes(c, {"gpu001", "gpu002", "gpu009"});
  std::vector<char> unusable = busy;
  unusable[c.slurm->node_index("gpu010")] = 1;
  for (Policy p : kPolicies) {
    const PolicyPlacement r = place_by(c, p, 12, busy, 5);
    CAPTURE(to_string(p));
    CHECK(r.nodes.size() == 12);
    CHECK(avoids(r.nodes, unusable));
    CHECK(r.leaves == c.leaves.leaves_spanned(r.nodes));
  }
}

TEST_CASE("whatif policies: Slurm, no topology, best and random differ as they should") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  // leaf001 has 6 free, leaf002 7, leaf003 and leaf004 8: a 12-node job needs two leaves.
  const std::vector<char> busy = busy_nodes(c, {"gpu001", "gpu002", "gpu009"});
  const PolicyPlacement slurm = place_by(c, Policy::Slurm, 12, busy, 1);
  const PolicyPlacement flat = place_by(c, Policy::NoTopology, 12, busy, 1);
  const PolicyPlacement best = place_by(c, Policy::Best, 12, busy, 1);
  CHECK(best.leaves == 2);
  CHECK(slurm.leaves == 2);
  // Without topology Slurm takes the best-fitting run of consecutive free nodes: gpu010-021.
  CHECK(c.names_of(flat.nodes).front() == "gpu010");
  CHECK(c.names_of(flat.nodes).back() == "gpu021");
  const PolicyPlacement r1 = place_by(c, Policy::Random, 12, busy, 1);
  CHECK(place_by(c, Policy::Random, 12, busy, 1).nodes == r1.nodes);
  CHECK(place_by(c, Policy::Random, 12, busy, 2).nodes != r1.nodes);
}

TEST_CASE("whatif policies: a job larger than the free nodes cannot start") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  const std::vector<char> busy = busy_nodes(c, {"gpu001", "gpu002"});
  for (Policy p : kPolicies) {
    const PolicyPlacement r = place_by(c, p, 31, busy, 1);
    CHECK(r.nodes.empty());
    CHECK(r.reason == "only 30 nodes are free");
  }
}
