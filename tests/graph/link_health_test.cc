// Port counters on the cables they belong to: on the ibsim fabric of tests/data/counters, whose
// counters were set through ibsim's console, every form admins keep names the same cable ends,
// and nothing below its threshold, on an uncabled port or on another fabric becomes a cable
// finding.
#include "graph/link_health.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "discover/counters_file.h"
#include "discover/fabric_file.h"
#include "graph/cluster_inputs.h"

using namespace slurmtopo;

namespace {
const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/counters/";
using K = Anomaly::Kind;

Cluster with_counters(std::vector<std::string> files, const std::string& site_yaml = "") {
  ClusterInputs in;
  in.fabric_files = {kData + "fabric.ibnetdiscover"};
  for (auto& f : files) in.counter_files.push_back(kData + f);
  std::string path;
  if (!site_yaml.empty()) {
    path = (std::filesystem::temp_directory_path() / ("link_health_test_" + std::to_string(getpid()) + ".yaml")).string();
    std::ofstream(path) << site_yaml;
    in.site_config = path;
  }
  Cluster c = load_cluster(in);
  if (!path.empty()) std::filesystem::remove(path);
  return c;
}

// (kind, subject) of the counter findings: what an admin reads first.
std::set<std::pair<std::string, std::string>> findings(const Cluster& c) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& a : c.anomalies)
    if (finding_kind(a.kind).check == std::string("fabric.errors") || a.kind == K::UnmatchedCounters)
      out.insert({to_string(a.kind), a.subject});
  return out;
}

const Anomaly* finding(const Cluster& c, K kind, const std::string& subject) {
  for (const auto& a : c.anomalies)
    if (a.kind == kind && a.subject == subject) return &a;
  return nullptr;
}

const std::set<std::pair<std::string, std::string>> kSet = {
    {"cable-errors", "su1-rail0[1] - dgx001 mlx5_0"},          // SymbolErrorCounter 500, LinkErrorRecovery 12
    {"cable-errors", "dgx003 mlx5_0 - su2-rail0[1]"},          // PortRcvErrors 25 at the host end
    {"upstream-errors", "su2-rail0[3] - rail0-spine01[3]"},    // PortRcvRemotePhysicalErrors 200
    {"congestion", "rail0-spine01[3] - su2-rail0[3]"},         // PortXmitDiscards 150
};
}  // namespace

TEST_CASE("link health: ibqueryerrors, with or without --details, names every cable end that was set") {
  for (const char* file : {"ibqueryerrors.txt", "ibqueryerrors-details.txt"}) {
    CAPTURE(file);
    const Cluster c = with_counters({file});
    CHECK(findings(c) == kSet);
    // dgx002's 5 symbol errors are below the threshold of 10; port 7's stuck counters are on
    // no cable: neither is a finding.
    REQUIRE(c.counter_sources.size() == 1);
    CHECK(c.counter_sources[0].matched == 5);
    CHECK(c.counter_sources[0].no_cable == 1);
    CHECK(c.counter_sources[0].unknown == 0);
    const Anomaly* a = finding(c, K::CableErrors, "su1-rail0[1] - dgx001 mlx5_0");
    REQUIRE(a);
    CHECK(a->detail.find("SymbolErrorCounter 500, LinkErrorRecoveryCounter 12") != std::string::npos);
    CHECK(a->detail.find(std::string(file) + ":") != std::string::npos);
    CHECK(a->detail.find("replace the cable") != std::string::npos);
    CHECK(finding_kind(K::CableErrors).severity == Severity::Fail);
    // Every matched end that counted something is kept (the textfile's series), dgx002's too,
    // marked as under its thresholds.
    REQUIRE(c.cable_health.size() == 5);
    int under = 0;
    for (const CableEndHealth& h : c.cable_health)
      if (h.over == 0) {
        ++under;
        CHECK(h.cable == "dgx002 mlx5_0 - su1-rail0[2]");
      }
    CHECK(under == 1);
  }
}

TEST_CASE("link health: perfquery of every port and ibdiagnet2.pm give the same cable ends") {
  // perfquery's ports 1-8 of each switch hold no HCA port, so dgx003's own count is not there.
  std::set<std::pair<std::string, std::string>> switches_only = kSet;
  switches_only.erase({"cable-errors", "dgx003 mlx5_0 - su2-rail0[1]"});
  CHECK(findings(with_counters({"perfquery-all.txt"})) == switches_only);
  // The .pm has no su2-rail0 port 3.
  std::set<std::pair<std::string, std::string>> pm = kSet;
  pm.erase({"upstream-errors", "su2-rail0[3] - rail0-spine01[3]"});
  CHECK(findings(with_counters({"ibdiagnet2.pm"})) == pm);
  // Read together, one finding per cable end and kind.
  CHECK(findings(with_counters({"ibqueryerrors.txt", "perfquery-all.txt", "ibdiagnet2.pm"})) == kSet);
}

TEST_CASE("link health: a switch summed (perfquery -a) names the switch, with 'at least' for a stuck counter") {
  const Cluster c = with_counters({"perfquery-a.txt"});
  const Anomaly* a = finding(c, K::SwitchErrors, "su1-rail0");
  REQUIRE(a);
  CHECK(a->detail.find("LinkDownedCounter at least 255") != std::string::npos);
  CHECK(a->detail.find("perfquery -l -a 1") != std::string::npos);
  CHECK(a->detail.find("/s") == std::string::npos);  // a stuck counter has no rate
  // With the ports read one by one too, the sum adds nothing.
  CHECK(finding(with_counters({"perfquery-a.txt", "perfquery-all.txt"}), K::SwitchErrors, "su1-rail0") == nullptr);
}

TEST_CASE("link health: site.yaml's counter_thresholds replace the defaults") {
  const Cluster strict = with_counters({"ibqueryerrors.txt"}, "counter_thresholds: {SymbolErrorCounter: 1}\n");
  CHECK(finding(strict, K::CableErrors, "dgx002 mlx5_0 - su1-rail0[2]") != nullptr);  // 5 > 1
  const Cluster loose = with_counters({"ibqueryerrors.txt"},
                                      "counter_thresholds: {SymbolErrorCounter: 600, LinkErrorRecoveryCounter: off,"
                                      " PortXmitDiscards: 1000}\n");
  CHECK(finding(loose, K::CableErrors, "su1-rail0[1] - dgx001 mlx5_0") == nullptr);
  CHECK(finding(loose, K::Congestion, "rail0-spine01[3] - su2-rail0[3]") == nullptr);
  CHECK(finding(loose, K::CableErrors, "dgx003 mlx5_0 - su2-rail0[1]") != nullptr);
}

TEST_CASE("link health: another fabric's counters are counted and named, never put on a cable") {
  ClusterInputs in;
  in.fabric_files = {SLURMTOPO_SOURCE_DIR "/tests/data/iblinkinfo/same-fabric.ibnetdiscover"};
  in.counter_files = {kData + "ibqueryerrors.txt"};
  const Cluster c = load_cluster(in);
  REQUIRE(c.counter_sources.size() == 1);
  CHECK(c.counter_sources[0].matched == 0);
  CHECK(c.counter_sources[0].unknown == 6);
  const Anomaly* a = finding(c, K::UnmatchedCounters, kData + "ibqueryerrors.txt");
  REQUIRE(a);
  CHECK(a->count == 6);
  CHECK(a->detail.find("6 ports of 6 name no node of the fabric") != std::string::npos);
  CHECK(finding_kind(K::UnmatchedCounters).check == std::string("inputs.match"));
  for (const auto& f : findings(c)) CHECK(f.first == "unmatched-counters");
}

TEST_CASE("link health: rates over the interval between two reads, and old errors that do not rise") {
  ClusterInputs in;
  in.fabric_files = {kData + "fabric.ibnetdiscover"};
  ClusterOptions options = load_cluster_options(in);
  CounterReadings r;
  r.source = "live:mlx5_0/1";
  r.form = "live";
  r.interval_s = 10;
  PortCounters rising;
  rising.guid = 0xb83fd20300a00000;
  rising.port = 1;
  rising.set(PortCounter::SymbolErrorCounter, 500, 64);
  rising.rated = 1u << static_cast<int>(PortCounter::SymbolErrorCounter);
  rising.per_second[static_cast<size_t>(PortCounter::SymbolErrorCounter)] = 3.2;
  PortCounters old = rising;
  old.port = 2;
  old.per_second[static_cast<size_t>(PortCounter::SymbolErrorCounter)] = 0;
  r.ports = {rising, old};
  options.counters = {r};
  const Cluster c = build_cluster(load_fabric_file(kData + "fabric.ibnetdiscover"), options);
  const Anomaly* a = finding(c, K::CableErrors, "su1-rail0[1] - dgx001 mlx5_0");
  REQUIRE(a);
  CHECK(a->detail.find("SymbolErrorCounter 500 (+3.2/s over 10 s)") != std::string::npos);
  CHECK(a->detail.find("Not rising") == std::string::npos);
  const Anomaly* b = finding(c, K::CableErrors, "su1-rail0[2] - dgx002 mlx5_0");
  REQUIRE(b);
  CHECK(b->detail.find("Not rising over the 10 s between reads") != std::string::npos);
}

TEST_CASE("link health: without counters nothing is judged and nothing is said") {
  const Cluster c = with_counters({});
  CHECK(c.counter_sources.empty());
  CHECK(findings(c).empty());
}

TEST_CASE("link health: port 0 is not cabled only on a switch the fabric has") {
  // A switch's port 0 (its management port) never has a cable; on a GUID the fabric does not
  // have, it is another fabric's port like any other, and says so.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("link_health_port0_" + std::to_string(getpid()) + ".txt")).string();
  std::ofstream(path) << "Errors for 0xb83fd20300a00000 \"MF0;su1-rail0:MQM8700/U1\"\n"
                         "   GUID 0xb83fd20300a00000 port 0: [SymbolErrorCounter == 500]\n"
                         "Errors for 0x0002c90300001234 \"MF0;elsewhere:MQM8700/U1\"\n"
                         "   GUID 0x0002c90300001234 port 0: [SymbolErrorCounter == 500]\n";
  ClusterInputs in;
  in.fabric_files = {kData + "fabric.ibnetdiscover"};
  in.counter_files = {path};
  const Cluster c = load_cluster(in);
  std::filesystem::remove(path);
  REQUIRE(c.counter_sources.size() == 1);
  CHECK(c.counter_sources[0].no_cable == 1);
  CHECK(c.counter_sources[0].unknown == 1);
  const Anomaly* a = finding(c, K::UnmatchedCounters, path);
  REQUIRE(a);
  CHECK(a->detail.find("0x0002c90300001234 port 0 (line 4)") != std::string::npos);
  for (const auto& f : findings(c)) CHECK(f.first == "unmatched-counters");
}
