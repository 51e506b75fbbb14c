#include <doctest/doctest.h>

#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report links: the 2:1 fat tree's leaves carry twice as much down as up, with their peers' uplinks") {
  const auto& leaves = fattree_report().leaves;
  REQUIRE(leaves.size() == 8);
  for (const auto& l : leaves) {
    CHECK(l.host_ports == 8);
    CHECK(l.uplinks == 4);
    CHECK(l.peer_uplinks == 4);
    CHECK(l.down_gbps == doctest::Approx(2 * l.up_gbps));
  }
}

TEST_CASE("report links: the SuperPOD leaf that lost an uplink shows fewer than its peers") {
  bool seen = false;
  for (const auto& l : superpod_report().leaves)
    if (l.leaf == "su4-rail5") {
      seen = true;
      CHECK(l.uplinks == l.peer_uplinks - 1);
      CHECK(l.up_gbps < l.down_gbps);
    }
  CHECK(seen);
}

TEST_CASE("report links: every cable named once, as the findings name cable ends") {
  const auto& cables = superpod_report().cables;
  CHECK(std::is_sorted(cables.begin(), cables.end()));
  CHECK(std::adjacent_find(cables.begin(), cables.end()) == cables.end());
  CHECK(std::find(cables.begin(), cables.end(), "rail6-spine01[24] - su2-rail6[24]") != cables.end());
}
