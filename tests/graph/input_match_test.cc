// Slurm's node list and a topology file in service, against the fabric's hosts.
#include "graph/input_match.h"

#include <doctest/doctest.h>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "slurm/hostlist.h"

using namespace slurmtopo;

namespace {

Cluster small_fabric() {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 2;
  spec.radix = 16;
  std::vector<Fabric> fabrics;
  fabrics.push_back(generate_rail_optimized(spec));
  return build_cluster(std::move(fabrics), ClusterOptions{});
}

}  // namespace

TEST_CASE("input match: Slurm nodes without an HCA in the fabric are named, with their count") {
  const Cluster c = small_fabric();
  const auto f = match_slurm_nodes(c, expand_hostlist("dgx[001-010]"), "slurm.conf", {}, false);
  REQUIRE(f);
  CHECK(f->kind == InputFinding::Kind::SlurmNodesNotInFabric);
  CHECK(f->count == 2);
  CHECK(f->subject == "dgx[009-010]");
  CHECK(std::string(finding_kind(f->kind).check) == "slurm.nodes");
  CHECK_FALSE(match_slurm_nodes(c, expand_hostlist("dgx[001-008]"), "slurm.conf", {}, false));
  CHECK_FALSE(match_slurm_nodes(c, expand_hostlist("dgx[002-003]"), "--nodes", {}, false));  // a subset is fine
}

TEST_CASE("input match: a node list sharing no host with the fabric is another cluster's") {
  const Cluster c = small_fabric();
  const auto f = match_slurm_nodes(c, expand_hostlist("cn[01-40]"), "slurm.conf", {}, false);
  REQUIRE(f);
  CHECK(f->kind == InputFinding::Kind::SlurmNotThisCluster);
  CHECK(f->count == 40);
  CHECK(f->detail.find("none of slurm.conf's 40 nodes") != std::string::npos);
  CHECK(std::string(finding_kind(f->kind).check) == "inputs.match");
  CHECK(finding_kind(f->kind).severity == Severity::Fail);
}

TEST_CASE("input match: a topology in service naming no host of the fabric fails, one shared host passes") {
  const Cluster c = small_fabric();
  const auto f = match_topology_nodes(c, expand_hostlist("node[1-16]"), "topology.conf");
  REQUIRE(f);
  CHECK(f->kind == InputFinding::Kind::TopologyNotThisCluster);
  CHECK(f->count == 16);
  CHECK(f->subject == "topology.conf");
  CHECK_FALSE(match_topology_nodes(c, expand_hostlist("node[1-16],dgx001"), "topology.conf"));
}
