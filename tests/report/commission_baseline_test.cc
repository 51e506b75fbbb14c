#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/input_error.h"
#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo_report_baseline_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("report baseline: against itself every finding is still open and nothing changed") {
  const std::string path = write_temp("same.json", commission_json(superpod_report()));
  CommissionRequest req = superpod_request();
  req.baseline = path;
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.baseline);
  CHECK(r.baseline->new_findings.empty());
  CHECK(r.baseline->fixed.empty());
  CHECK(r.baseline->still_open.size() == r.findings.size());
  CHECK(r.baseline->hosts_added.empty());
  CHECK(r.baseline->cables_gone.empty());
  CHECK(find_check(r, "baseline")->verdict == Verdict::Pass);
}

TEST_CASE("report baseline: a schema 1 report (before the what-if spread figures) still serves as a baseline") {
  std::string text = commission_json(superpod_report());
  const std::string current = "\"schema_version\": 3";
  const size_t at = text.find(current);
  REQUIRE(at != std::string::npos);
  text.replace(at, current.size(), "\"schema_version\": 1");
  CommissionRequest req = superpod_request();
  req.baseline = write_temp("schema1.json", text);
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.baseline);
  CHECK(r.baseline->new_findings.empty());
  CHECK(r.baseline->still_open.size() == r.findings.size());
}

TEST_CASE("report baseline: from a clean fabric to the faulty one the faults are new, and back they are fixed") {
  const std::string path = write_temp("clean.json", commission_json(fattree_report()));
  CommissionRequest req = superpod_request();
  req.baseline = path;
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.baseline);
  CHECK(r.baseline->new_findings.size() == r.findings.size());
  CHECK(r.baseline->hosts_added.size() == 64);  // dgx001..064
  CHECK(r.baseline->hosts_gone.size() == 64);   // cn001..064
  CHECK_FALSE(r.baseline->cables_gone.empty());
  CHECK(find_check(r, "baseline")->verdict == Verdict::Warn);

  // And back: the faults are fixed.
  const std::string faulty = write_temp("faulty.json", commission_json(superpod_report()));
  CommissionRequest back = fattree_request();
  back.baseline = faulty;
  const CommissionReport b = plan_commission(back);
  // The fabric's faults are fixed; the node ones were not looked at (no --nodes-dir).
  size_t fabric = 0;
  for (const auto& f : superpod_report().findings) fabric += f.source == "fabric";
  CHECK(b.baseline->fixed.size() == fabric);
}

TEST_CASE("report baseline: a file that is not a report is an InputError with its line") {
  const std::string path = write_temp("bad.json", "{\n \"format\": \"slurmtopo-report\",\n \"schema_version\": 99\n}\n");
  try {
    read_baseline(path);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 3);
    CHECK(std::string(e.what()).find("schema_version 1 to 3") != std::string::npos);
  }
  CHECK_THROWS_AS(read_baseline(write_temp("other.json", "{\"fabrics\": []}\n")), InputError);
  CHECK_THROWS_AS(read_baseline(write_temp("broken.json", "{\"format\": \n")), InputError);
}

TEST_CASE("report baseline: node findings are not fixed by a report that did not look at the nodes") {
  const std::string path = write_temp("with-nodes.json", commission_json(superpod_report()));
  CommissionRequest req = superpod_request();
  req.nodes = NodeSources{};
  req.baseline = path;
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.baseline);
  CHECK(r.baseline->fixed.empty());
  CHECK(r.baseline->still_open.size() == r.findings.size());
}

TEST_CASE("report baseline: port-counter findings by cable — a replaced cable is fixed, a new one new, the rest still open") {
  const std::string before = write_temp("counters-before.json", commission_json(counters_report()));
  // The next read: su1-rail0[1]'s cable was replaced (no errors), dgx002's cable now errors
  // beyond the threshold, the others are as they were.
  const std::string after = write_temp("counters-after.txt",
                                       "Errors for \"dgx003 mlx5_0\"\n"
                                       "   GUID 0xb83fd20300c00021 port 1: [PortRcvErrors == 25]\n"
                                       "Errors for 0xb83fd20300a00010 \"MF0;su2-rail0:MQM8700/U1\"\n"
                                       "   GUID 0xb83fd20300a00010 port 3: [PortRcvRemotePhysicalErrors == 200]\n"
                                       "Errors for 0xb83fd20300a00020 \"MF0;rail0-spine01:MQM8700/U1\"\n"
                                       "   GUID 0xb83fd20300a00020 port 3: [PortXmitDiscards == 150]\n"
                                       "Errors for \"dgx002 mlx5_0\"\n"
                                       "   GUID 0xb83fd20300c00011 port 1: [SymbolErrorCounter == 50]\n");
  CommissionRequest req = counters_request();
  req.inputs.counter_files = {after};
  req.baseline = before;
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.baseline);
  std::vector<std::string> fresh, fixed, open;
  for (int i : r.baseline->new_findings) fresh.push_back(r.findings[i].key());
  for (const auto& f : r.baseline->fixed) fixed.push_back(f.key());
  for (int i : r.baseline->still_open) open.push_back(r.findings[i].key());
  CHECK(fresh == std::vector<std::string>{"cable-errors\tdgx002 mlx5_0 - su1-rail0[2]"});
  CHECK(fixed == std::vector<std::string>{"cable-errors\tsu1-rail0[1] - dgx001 mlx5_0"});
  CHECK(std::find(open.begin(), open.end(), "cable-errors\tdgx003 mlx5_0 - su2-rail0[1]") != open.end());
  CHECK(std::find(open.begin(), open.end(), "congestion\trail0-spine01[3] - su2-rail0[3]") != open.end());
  CHECK(std::find(open.begin(), open.end(), "upstream-errors\tsu2-rail0[3] - rail0-spine01[3]") != open.end());
}
