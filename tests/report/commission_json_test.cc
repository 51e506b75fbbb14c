#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "commission_fixture.h"

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
  for (const char* key : {"command", "inventory", "drawing", "leaves", "node_classes", "node_warnings", "performance",
                          "slurm", "topology_diff", "baseline", "cables"})
    CHECK_MESSAGE(j.contains(key), key);
}
