// The best placement: fewest leaves in the smallest subtree, tightest fit for the rest.
#include "simulate/whatif/best_placement.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {

// 4 leaves of 4 nodes, two per aggregation switch, one root.
LeafTree tree() {
  std::vector<std::string> names;
  for (int i = 1; i <= 16; ++i) names.push_back("n" + std::to_string(i));
  return leaf_tree(parse_topology_conf("SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\n"
                                       "SwitchName=l3 Nodes=n[9-12]\nSwitchName=l4 Nodes=n[13-16]\n"
                                       "SwitchName=a1 Switches=l[1-2]\nSwitchName=a2 Switches=l[3-4]\n"
                                       "SwitchName=root Switches=a[1-2]\n",
                                       "t.conf"),
                   names);
}

std::vector<char> busy(std::initializer_list<int> ones) {
  std::vector<char> b(16, 0);
  for (int n : ones) b[n - 1] = 1;
  return b;
}

}  // namespace

TEST_CASE("best placement: the tightest leaf that holds the job") {
  // l1 has 3 free (n1 busy), l2..l4 have 4: a 3-node job fits l1 exactly.
  CHECK(best_placement(tree(), busy({1}), 3) == std::vector<int>{1, 2, 3});
}

TEST_CASE("best placement: the subtree that holds it, whole leaves first, tightest remainder") {
  // n5-n7 busy: a1 has 4 + 1 free (< 6), a2 has 8: l3 whole, then 2 of l4.
  const LeafTree t = tree();
  const auto nodes = best_placement(t, busy({5, 6, 7}), 6);
  CHECK(nodes == std::vector<int>{8, 9, 10, 11, 12, 13});
  CHECK(t.leaves_spanned(nodes) == 2);
  CHECK(t.groups_spanned(nodes) == 1);
}

TEST_CASE("best placement: across groups only when no group holds the job") {
  // 10 nodes: no aggregation switch has 10 free; the root takes a2 whole (8) and 2 of a1,
  // from the leaf that holds 2 most tightly (l2, 2 free).
  const LeafTree t = tree();
  const auto nodes = best_placement(t, busy({5, 6}), 10);
  CHECK(nodes == std::vector<int>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(t.leaves_spanned(nodes) == 3);
}

TEST_CASE("best placement: nothing when the free nodes do not suffice") {
  CHECK(best_placement(tree(), busy({1}), 16).empty());
}
