#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commission_fixture.h"
#include "graph/cluster_inputs.h"
#include "report/inspect.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report JSON: same input, same bytes") {
  const std::string a = commission_json(plan_commission(superpod_request()));
  const std::string b = commission_json(plan_commission(superpod_request()));
  CHECK(a == b);
}

TEST_CASE("report JSON: schema version, verdict, checks and every finding, as docs/report-json.md lists them") {
  const auto j = nlohmann::json::parse(commission_json(superpod_report()));
  CHECK(j["format"] == "slurmtopo-report");
  CHECK(j["slurmtopo_version"] == slurmtopo_version());
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(j["verdict"] == "fail");
  CHECK(j["exit_code"] == 4);
  CHECK(j["checks"].size() == superpod_report().checks.size());
  CHECK(j["findings"].size() == superpod_report().findings.size());
  CHECK(j["hosts"] == "dgx[001-064]");
  CHECK(j["inventory"]["hosts"] == 64);
  CHECK(j["performance"]["curves"].size() >= 1);
  CHECK(j["slurm"][0]["name"] == "topology.conf");
  for (const char* key : {"command", "inventory", "drawing", "leaves", "port_counters", "cable_health", "node_classes",
                          "node_warnings", "performance", "slurm", "topology_diff", "baseline", "cables"})
    CHECK_MESSAGE(j.contains(key), key);
}

TEST_CASE("report JSON: port_counters and cable_health, the same as inspect --json gives for the same inputs") {
  const std::string a = commission_json(plan_commission(counters_request()));
  CHECK(a == commission_json(counters_report()));  // same input, same bytes
  const auto j = nlohmann::json::parse(a);
  const std::string file = counters_data("ibqueryerrors.txt");
  REQUIRE(j["port_counters"].size() == 1);
  CHECK(j["port_counters"][0]["source"] == file);
  CHECK(j["port_counters"][0]["form"] == "ibqueryerrors");
  CHECK(j["port_counters"][0]["ports"] == 6);
  CHECK(j["port_counters"][0]["matched"] == 5);
  CHECK(j["port_counters"][0]["unknown"] == 0);
  // Four ends over a threshold, and dgx002's 5 symbol errors under it (threshold 10).
  REQUIRE(j["cable_health"].size() == 5);
  int under = 0;
  for (const auto& row : j["cable_health"])
    if (row["over_threshold"] == false) {
      ++under;
      CHECK(row["cable"] == "dgx002 mlx5_0 - su1-rail0[2]");
      CHECK(row["counters"]["SymbolErrorCounter"]["value"] == 5);
    }
  CHECK(under == 1);
  const auto& first = j["cable_health"][0];
  CHECK(first["cable"] == "su1-rail0[1] - dgx001 mlx5_0");
  CHECK(first["fabric"] == "fabric");
  CHECK(first["source"] == file);
  CHECK(first["line"] == 13);
  CHECK(first["counters"]["SymbolErrorCounter"]["value"] == 500);
  CHECK(first["over_threshold"] == true);
  CHECK(first["counters"]["SymbolErrorCounter"]["over_threshold"] == true);
  CHECK(first["counters"]["SymbolErrorCounter"]["at_least"] == false);
  CHECK_FALSE(first["counters"]["SymbolErrorCounter"].contains("per_second"));  // one read: no rate
  // The keys sit with the link health, after the leaves.
  const auto ordered = nlohmann::ordered_json::parse(a);
  std::vector<std::string> keys;
  for (const auto& item : ordered.items()) keys.push_back(item.key());
  const auto at = std::find(keys.begin(), keys.end(), "leaves");
  REQUIRE(at + 2 < keys.end());
  CHECK(at[1] == "port_counters");
  CHECK(at[2] == "cable_health");
  // inspect --json writes the same objects.
  const auto inspect = nlohmann::json::parse(inspect_json(load_cluster(counters_request().inputs)));
  CHECK(inspect["port_counters"] == j["port_counters"]);
  CHECK(inspect["cable_health"] == j["cable_health"]);
}

TEST_CASE("report JSON: without --counters port_counters and cable_health are there, empty") {
  const auto j = nlohmann::json::parse(commission_json(no_counters_report()));
  CHECK(j["port_counters"] == nlohmann::json::array());
  CHECK(j["cable_health"] == nlohmann::json::array());
}
