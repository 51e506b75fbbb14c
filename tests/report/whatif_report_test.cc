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

TEST_CASE("whatif report: paired samples with their spread, the widest change explained, the engines named") {
  // Three samples: +10 %, -5 %, unchanged. The widest (+10 %) kept its nodes and moved 3 of 12 flows.
  auto job = [](double before, double after, const char* b_neck, const char* a_neck, int moved) {
    json b = placed(before, 2, 1), a = placed(after, 2, 1);
    b["bottleneck"] = b_neck;
    a["bottleneck"] = a_neck;
    return json{{"job_nodes", 4}, {"before", b}, {"after", a}, {"flows", 12}, {"flows_moved", moved}};
  };
  std::vector<json> records{{{"unit", 0}, {"busy_nodes", 3}, {"jobs", {job(20, 22, "s1[1]->l1[9]", "n1 mlx5_0 NIC tx", 3)}}},
                            {{"unit", 1}, {"busy_nodes", 4}, {"jobs", {job(20, 19, "x", "y", 1)}}},
                            {{"unit", 2}, {"busy_nodes", 5}, {"jobs", {job(20, 20, "x", "x", 0)}}}};
  json h = header();
  h["samples"] = 3;
  h["routing"] = {{"before", "ftree"}, {"after", "minhop, as OpenSM falls back to (why)"}};
  const json doc = json::parse(whatif_report(h, records, true));
  const json& paired = doc["summary"]["sizes"][0]["paired"];
  CHECK(paired["samples"] == 3);
  CHECK(paired["better"] == 1);
  CHECK(paired["worse"] == 1);
  CHECK(paired["same"] == 1);
  CHECK(paired["p50"] == 0.0);
  CHECK(paired["widest"]["unit"] == 0);
  CHECK(paired["widest"]["change"] == 0.1);
  CHECK(paired["widest"]["flows_moved"] == 3);
  const std::string text = whatif_report(h, records, false);
  CHECK(text.find("routing before: ftree\nrouting after:  minhop, as OpenSM falls back to (why)") != std::string::npos);
  CHECK(text.find("note: the edit changed the routing engine") != std::string::npos);
  CHECK(text.find("        4        1       1       1  -5.0 % / +0.0 % / +10.0 %") != std::string::npos);
  CHECK(text.find("widest change, 4 nodes: sample 0, 20.00 -> 22.00 GB/s (+10.0 %); same nodes, 3 of 12 flows") !=
        std::string::npos);
  CHECK(text.find("bottleneck before: s1[1]->l1[9]") != std::string::npos);
  CHECK(text.find("bottleneck after:  n1 mlx5_0 NIC tx") != std::string::npos);
}
