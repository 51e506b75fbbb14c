// build_cluster's levels, roles and groups (graph/cluster.cc): storage hosts and the storage
// leaf on a generated rail-optimized fabric with a storage tier.
#include "graph/cluster.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "discover/synthetic_fabric.h"
#include "emit/topology_plan.h"
#include "graph/hca_guesses.h"

using namespace slurmtopo;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("storage hosts: only a side-rail HCA, left out of topology.conf unless Slurm names them") {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  spec.storage_switch = true;
  Fabric f = generate_rail_optimized(spec);
  std::vector<std::string> compute;
  for (int r = 0; r < 4; ++r) compute.push_back("dgx001,su1-rail" + std::to_string(r));
  apply_faults(f, parse_faults(compute, {}));
  const Cluster c = build_cluster({f}, ClusterOptions{});
  REQUIRE(c.host_index("dgx001") >= 0);
  CHECK(c.hosts[c.host_index("dgx001")].role == HostRole::Storage);
  CHECK(c.rails.size() == 5);
  CHECK(c.rails[4].side);
  // The storage leaf is never a Slurm leaf of compute hosts.
  for (const auto& g : c.groups)
    for (int h : g.hosts)
      if (c.hosts[h].compute())
        for (int s : g.leaves) CHECK(c.switches[s].name.rfind("stor-", 0) == std::string::npos);
  const TopologyPlan plan = plan_topology(c, {});
  CHECK(plan.left_out == std::vector<std::string>{"dgx001"});
  CHECK(!contains(plan.text, "dgx001"));
  CHECK(contains(plan.text, "dgx[002-004]"));  // its unit, less the storage host
  TopologyRequest named;
  named.slurm_nodes = std::vector<std::string>{"dgx001", "dgx002", "dgx003"};
  const TopologyPlan with = plan_topology(c, named);
  CHECK(contains(with.text, "dgx001"));
  CHECK(with.left_out.empty());
}

TEST_CASE("link_vertices: each cable's two ends as graph vertices, -1 for a GUID the fabric lacks") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 8;
  Fabric f = generate_fattree(spec);
  Link stray = f.links.front();
  stray.b.guid = 0x1234;  // a cable to a node with no block of its own
  f.links.push_back(stray);
  const Cluster c = build_cluster({f}, ClusterOptions{});
  const Fabric& fabric = c.fabrics.front();
  REQUIRE(c.link_vertices.size() == 1);
  REQUIRE(c.link_vertices[0].size() == fabric.links.size());
  int unknown = 0;
  for (size_t l = 0; l < fabric.links.size(); ++l) {
    const auto [a, b] = c.link_vertices[0][l];
    REQUIRE(a >= 0);
    CHECK(fabric.nodes[c.graph[a].node].guid == fabric.links[l].a.guid);
    if (b < 0) {
      ++unknown;
      CHECK(fabric.find(fabric.links[l].b.guid) == nullptr);
    } else {
      CHECK(fabric.nodes[c.graph[b].node].guid == fabric.links[l].b.guid);
    }
  }
  CHECK(unknown == 1);
}

TEST_CASE("a compute host whose compute HCAs merely lack names is not a storage host: unplaced, not a storage leaf") {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 8;
  spec.rails = 4;
  spec.radix = 32;
  spec.storage_switch = true;
  Fabric f = generate_rail_optimized(spec);
  // dgx003's four compute HCAs keep their factory description; its storage HCA is named.
  int blanked = 0;
  for (auto& n : f.nodes)
    if (n.kind == NodeKind::Ca && n.description.rfind("dgx003 mlx5_", 0) == 0 && n.description != "dgx003 mlx5_4") {
      n.description = "MT4129 ConnectX7   Mellanox Technologies";
      ++blanked;
    }
  REQUIRE(blanked == 4);
  const Cluster c = build_cluster({f}, ClusterOptions{});
  const int h = c.host_index("dgx003");
  REQUIRE(h >= 0);
  CHECK(c.hosts[h].role == HostRole::Unplaced);
  // Its unnamed HCAs have a likely owner: dgx003, on port 3 of every rail leaf of su1.
  int guessed = 0;
  for (const HcaGuess& g : c.guesses.guesses) guessed += g.host == "dgx003";
  CHECK(guessed == 4);
  const TopologyPlan plan = plan_topology(c, {});
  CHECK(!contains(plan.text, "dgx003"));  // never on the storage leaf
  CHECK(std::count(plan.left_out.begin(), plan.left_out.end(), "dgx003") == 1);
}
