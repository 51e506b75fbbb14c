// The what-if report from records alone: the edits summary worked out by hand.
#include "report/whatif_report.h"

#include <doctest/doctest.h>

using namespace slurmtopo;
using json = nlohmann::ordered_json;

namespace {

json placed(double busbw, int leaves, int groups) {
  json p = {{"policy", "slurm"}, {"started", true}, {"hostlist", "n[1-4]"}, {"leaves", leaves}, {"groups", groups}};
  p["busbw_gbs"] = busbw > 0 ? json(busbw) : json(nullptr);
  return p;
}

json header() {
  return {{"command", "slurmtopo whatif"}, {"mode", "edits"}, {"fabric", {"f"}}, {"nodes", 16},
          {"topology", "emitted topology.conf"}, {"profile", "p"}, {"size", "1 GiB"}, {"seed", 1},
          {"sizes", {4}}, {"busy", ""}, {"samples", 2}, {"max_busy_share", 0.6}, {"edits", {"add 1 spine"}},
          {"notes", json::array()}, {"units", 2}};
}

}  // namespace

TEST_CASE("whatif report: edits summarised per job size") {
  // Sample 0: before 10 GB/s on 2 leaves, after 30 on 1. Sample 1: before 20 on 1 leaf, after
  // started but not costed, on 2 leaves in 2 groups. Means 15 and 30: +100 %.
  std::vector<json> records{
      {{"unit", 0}, {"busy_nodes", 3}, {"jobs", {{{"job_nodes", 4}, {"before", placed(10, 2, 1)}, {"after", placed(30, 1, 1)}}}}},
      {{"unit", 1}, {"busy_nodes", 5}, {"jobs", {{{"job_nodes", 4}, {"before", placed(20, 1, 1)}, {"after", placed(0, 2, 2)}}}}}};
  const json doc = json::parse(whatif_report(header(), records, true));
  const json& row = doc["summary"]["sizes"][0];
  CHECK(row["before"]["started"] == 2);
  CHECK(row["before"]["mean_busbw_gbs"] == 15.0);
  CHECK(row["after"]["mean_busbw_gbs"] == 30.0);
  CHECK(row["busbw_change"] == 1.0);
  CHECK(row["before"]["span_leaves"] == 1);
  CHECK(row["after"]["span_leaves"] == 1);
  CHECK(row["after"]["span_groups"] == 1);
  CHECK(doc["records"].size() == 2);
  const std::string text = whatif_report(header(), records, false);
  CHECK(text.find("edit: add 1 spine") != std::string::npos);
  CHECK(text.find("15.00 -> 30.00") != std::string::npos);
  CHECK(text.find("+100.0 %") != std::string::npos);
}
