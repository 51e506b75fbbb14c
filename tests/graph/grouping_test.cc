#include "graph/grouping.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("grouping: one leaf per host gives one group per leaf, numbered by first host") {
  // hosts 0,1 on switch 1; hosts 2,3 on switch 0
  GroupingResult r = group_hosts({{1}, {1}, {0}, {0}}, 2);
  CHECK(r.host_group == std::vector<int>{0, 0, 1, 1});
  CHECK(r.group_leaves == std::vector<std::vector<int>>{{1}, {0}});
  CHECK(r.deviations.empty());
  CHECK(r.secondary == std::vector<bool>{false, false});
}

TEST_CASE("grouping: rail leaves of a scalable unit form one group") {
  // SU A = hosts 0-2 on rail leaves 0,1; SU B = hosts 3-5 on rail leaves 2,3.
  GroupingResult r = group_hosts({{0, 1}, {0, 1}, {1, 0}, {2, 3}, {2, 3}, {3, 2}}, 4);
  CHECK(r.host_group == std::vector<int>{0, 0, 0, 1, 1, 1});
  CHECK(r.group_leaves == std::vector<std::vector<int>>{{0, 1}, {2, 3}});
}

TEST_CASE("grouping: a storage switch carrying hosts of two units is secondary, not a merger") {
  // Switch 2 carries every host's second HCA; it must neither be a leaf nor merge the units.
  GroupingResult r = group_hosts({{0, 2}, {0, 2}, {1, 2}, {1, 2}}, 3);
  CHECK(r.secondary == std::vector<bool>{false, false, true});
  CHECK(r.host_group == std::vector<int>{0, 0, 1, 1});
  CHECK(r.group_leaves == std::vector<std::vector<int>>{{0}, {1}});
}

TEST_CASE("grouping: a host with a missing rail stays in its unit and is reported") {
  // Hosts 0-3 reach rail leaves 0,1,2; host 3 has lost its cable to leaf 2.
  GroupingResult r = group_hosts({{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1}}, 3);
  CHECK(r.host_group == std::vector<int>{0, 0, 0, 0});
  REQUIRE(r.deviations.size() == 1);
  CHECK(r.deviations[0].host == 3);
  CHECK(r.deviations[0].missing == std::vector<int>{2});
  CHECK(r.deviations[0].foreign.empty());
}

TEST_CASE("grouping: a miscabled rail is reported as foreign, the host stays with its unit") {
  // Unit A: leaves 0,1,2 (hosts 0-2); unit B: leaves 3,4,5 (hosts 3-5).
  // Host 2's third rail went to B's leaf 5 instead of A's leaf 2.
  GroupingResult r = group_hosts({{0, 1, 2}, {0, 1, 2}, {0, 1, 5}, {3, 4, 5}, {3, 4, 5}, {3, 4, 5}}, 6);
  CHECK(r.host_group == std::vector<int>{0, 0, 0, 1, 1, 1});
  REQUIRE(r.deviations.size() == 1);
  CHECK(r.deviations[0].missing == std::vector<int>{2});
  CHECK(r.deviations[0].foreign == std::vector<int>{5});
  // Leaf 5 now carries a host of unit A too, but it does not cover two whole units.
  CHECK_FALSE(r.secondary[5]);
}

TEST_CASE("grouping: hosts that reach no switch get no group") {
  GroupingResult r = group_hosts({{}, {0}}, 1);
  CHECK(r.host_group == std::vector<int>{-1, 0});
}
