#include <doctest/doctest.h>

#include "commission_fixture.h"
#include "report/commission_parts.h"

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

TEST_CASE("report links: a row per cable end above its thresholds — this end first, each counter over it with its value, file:line") {
  const CommissionReport& r = counters_report();
  const std::vector<CableHealthRow> rows = cable_health_rows(r);
  REQUIRE(rows.size() == 4);
  const std::string file = counters_data("ibqueryerrors.txt");
  // By fabric, cable and end, as Cluster::cable_health.
  CHECK(rows[0].cable == "su1-rail0[1] - dgx001 mlx5_0");
  CHECK(rows[0].counters == "SymbolErrorCounter 500, LinkErrorRecoveryCounter 12");
  CHECK(rows[0].where == file + ":13");
  CHECK(rows[0].severity == Severity::Fail);
  CHECK(rows[1].cable == "dgx003 mlx5_0 - su2-rail0[1]");
  CHECK(rows[1].counters == "PortRcvErrors 25");
  CHECK(rows[1].where == file + ":2");
  CHECK(rows[2].cable == "su2-rail0[3] - rail0-spine01[3]");
  CHECK(rows[2].counters == "PortRcvRemotePhysicalErrors 200");
  CHECK(rows[2].severity == Severity::Warn);
  CHECK(rows[3].cable == "rail0-spine01[3] - su2-rail0[3]");
  CHECK(rows[3].counters == "PortXmitDiscards 150");
  CHECK(rows[3].where == file + ":8");
  // dgx002's five symbol errors are below the threshold: no row.
  for (const auto& row : rows) CHECK(row.cable.find("dgx002") == std::string::npos);
}

TEST_CASE("report links: a counter stuck at its maximum is 'at least' its value, one read twice shows its rate") {
  CommissionReport r = counters_report();
  REQUIRE(!r.cable_health.empty());
  CableEndHealth& h = r.cable_health[0];
  h.counters.set(PortCounter::LinkDownedCounter, 255, 8);  // all ones in 8 bits: stopped counting
  h.over |= 1u << static_cast<int>(PortCounter::LinkDownedCounter);
  h.counters.rated |= 1u << static_cast<int>(PortCounter::SymbolErrorCounter);
  h.counters.per_second[static_cast<size_t>(PortCounter::SymbolErrorCounter)] = 3.25;
  const CableHealthRow row = cable_health_rows(r)[0];
  CHECK(row.counters == "SymbolErrorCounter 500 (+3.25/s), LinkErrorRecoveryCounter 12, LinkDownedCounter at least 255");
}

TEST_CASE("report links: without --counters no cable end has a row") {
  CHECK(no_counters_report().cable_health.empty());
  CHECK(no_counters_report().counter_sources.empty());
  CHECK(cable_health_rows(no_counters_report()).empty());
}
