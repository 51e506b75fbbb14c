// The tree of a topology.conf as the what-if counts it: leaves, groups, levels, Slurm's
// "last parent wins" rule.
#include "simulate/scheduler/leaf_tree.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {
std::vector<std::string> nodes(int n) {
  std::vector<std::string> v;
  for (int i = 1; i <= n; ++i) v.push_back("n" + std::to_string(i));
  return v;
}
}  // namespace

TEST_CASE("leaf tree: leaves, groups and levels of a 3-level tree") {
  const LeafTree t = leaf_tree(parse_topology_conf("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n"
                                                   "SwitchName=l3 Nodes=n[5-6]\nSwitchName=a1 Switches=l[1-2]\n"
                                                   "SwitchName=a2 Switches=l3\nSwitchName=top Switches=a[1-2]\n",
                                                   "t.conf"),
                               nodes(7));
  CHECK(t.level == std::vector<int>{0, 0, 0, 1, 1, 2});
  CHECK(t.parent == std::vector<int>{3, 3, 4, 5, 5, -1});
  CHECK(t.node_leaf == std::vector<int>{0, 0, 1, 1, 2, 2, -1});  // n7 under no switch
  CHECK(t.node_group == std::vector<int>{3, 3, 3, 3, 4, 4, -1});
  CHECK(t.leaves_spanned({0, 1}) == 1);
  CHECK(t.leaves_spanned({1, 2}) == 2);
  CHECK(t.groups_spanned({1, 2}) == 1);
  CHECK(t.groups_spanned({3, 4}) == 2);
  CHECK(t.leaves_spanned({6}) == 0);
}

TEST_CASE("leaf tree: a switch listed under two parents belongs to the last") {
  const LeafTree t = leaf_tree(parse_topology_conf("SwitchName=l1 Nodes=n1\nSwitchName=a Switches=l1\n"
                                                   "SwitchName=b Switches=l1\n",
                                                   "t.conf"),
                               nodes(1));
  CHECK(t.parent[0] == 2);
  CHECK(t.children[1].empty());
  CHECK(t.children[2] == std::vector<int>{0});
}

TEST_CASE("leaf tree: a leaf without a parent is its own group") {
  const LeafTree t = leaf_tree(parse_topology_conf("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n", "t.conf"),
                               nodes(4));
  CHECK(t.groups_spanned({0, 1}) == 1);
  CHECK(t.groups_spanned({1, 2}) == 2);
}
