#include "graph/slurm_tree.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"

using namespace slurmtopo;

namespace {
SlurmTree tree_of(std::vector<Fabric> fabrics) {
  return build_slurm_tree(build_cluster(std::move(fabrics), {}));
}

int count_level(const SlurmTree& t, int level) {
  return static_cast<int>(std::count_if(t.switches.begin(), t.switches.end(),
                                        [&](const SlurmSwitch& s) { return s.level == level; }));
}

const SlurmSwitch& root(const SlurmTree& t) {
  REQUIRE(t.roots().size() == 1);
  return t.switches[t.roots().front()];
}
}  // namespace

TEST_CASE("slurm tree: 2-level fat tree is its leaves under one spine switch") {
  FatTreeSpec spec;
  spec.radix = 8;  // full tree: k/2 = 4 hosts per leaf, k = 8 leaves, 4 spines
  SlurmTree t = tree_of({generate_fattree(spec)});
  CHECK(count_level(t, 1) == 8);
  CHECK(count_level(t, 2) == 1);  // the 4 spines cannot be told apart by placement: one switch
  CHECK(root(t).children.size() == 8);
  CHECK(root(t).members.size() == 4);
}

TEST_CASE("slurm tree: 3-level fat tree has pods under one core switch") {
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 8;  // k pods of k/2 leaves: 8 pods x 4 leaves, 16 cores
  SlurmTree t = tree_of({generate_fattree(spec)});
  CHECK(count_level(t, 1) == 32);
  CHECK(count_level(t, 2) == 8);
  CHECK(count_level(t, 3) == 1);
  CHECK(root(t).children.size() == 8);
  CHECK(root(t).members.size() == 16);
}

TEST_CASE("slurm tree: rail-optimized units are one leaf each, SHARP and storage change nothing") {
  RailOptimizedSpec spec;
  spec.scalable_units = 4;
  spec.hosts_per_su = 8;
  spec.rails = 8;
  spec.radix = 32;  // a storage leaf takes k/2 = 16 hosts: it spans two units, as in real halls
  for (bool extras : {false, true}) {
    CAPTURE(extras);
    spec.sharp = extras;
    spec.storage_switch = extras;
    Cluster c = build_cluster({generate_rail_optimized(spec)}, {});
    SlurmTree t = build_slurm_tree(c);
    REQUIRE(count_level(t, 1) == 4);
    CHECK(t.switches[0].name == "su1");
    CHECK(t.switches[0].nodes.size() == 8);
    CHECK(t.switches[0].members.size() == 8);  // the unit's 8 rail leaves
    CHECK(root(t).children.size() == 4);
    for (const auto& s : c.switches)
      if (s.name.rfind("stor-", 0) == 0) CHECK(s.role != SwitchRole::Leaf);
  }
}

TEST_CASE("slurm tree: separate fabrics get separate roots, never a shared one") {
  FatTreeSpec a, b;
  a.radix = b.radix = 8;
  b.host_prefix = "cpu";
  b.switch_prefix = "b-";
  b.subnet = 1;  // another subnet's GUIDs: the same GUIDs twice would be one subnet given twice
  Fabric fa = generate_fattree(a), fb = generate_fattree(b);
  fa.name = "ib0";
  fb.name = "ib1";
  SlurmTree t = tree_of({fa, fb});
  CHECK(t.roots().size() == 2);
  for (int r : t.roots()) CHECK(t.switches[r].members.size() == 4);  // each a real spine plane
}

TEST_CASE("slurm tree: leaves joined only leaf-to-leaf get a root for their fabric") {
  Fabric f;
  f.name = "tiny";
  auto sw = [&](uint64_t g, const char* d) { f.nodes.push_back({NodeKind::Switch, g, 0, d, 8, 1, 0, 0, false}); };
  auto ca = [&](uint64_t g, const char* d) { f.nodes.push_back({NodeKind::Ca, g, 0, d, 1, 2, 0, 0, false}); };
  sw(0x10, "MF0;leafA:X/U1");
  sw(0x20, "MF0;leafB:X/U1");
  ca(0x1, "n1 mlx5_0");
  ca(0x2, "n2 mlx5_0");
  f.links.push_back({{0x10, 1, 0, 0}, {0x1, 1, 0x1, 0}, 4, LinkSpeed::HDR});
  f.links.push_back({{0x20, 1, 0, 0}, {0x2, 1, 0x2, 0}, 4, LinkSpeed::HDR});
  f.links.push_back({{0x10, 8, 0, 0}, {0x20, 8, 0, 0}, 4, LinkSpeed::HDR});
  normalize(f);
  SlurmTree t = tree_of({f});
  CHECK(count_level(t, 1) == 2);
  CHECK(root(t).name == "tiny-root");
  CHECK(root(t).members.empty());
}

TEST_CASE("slurm tree: restricting to Slurm's nodes drops emptied switches") {
  FatTreeSpec spec;
  spec.radix = 8;
  SlurmTree t = restrict_to_nodes(tree_of({generate_fattree(spec)}), {"gpu001", "gpu002", "gpu005"});
  CHECK(count_level(t, 1) == 2);
  CHECK(t.switches[0].nodes == std::vector<std::string>{"gpu001", "gpu002"});
  CHECK(root(t).children.size() == 2);
}
