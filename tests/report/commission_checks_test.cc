#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "commission_fixture.h"
#include "emit/block_plan.h"
#include "graph/input_match.h"
#include "graph/node_join.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

Finding fabric_finding(Anomaly::Kind kind, std::string subject, int count = 1) {
  return make_finding("fabric", finding_kind(kind), std::move(subject), "detail", count);
}

}  // namespace

TEST_CASE("report checks: a bad cable fails, an unnamed HCA warns, each with its count") {
  const CommissionReport& r = superpod_report();
  REQUIRE(find_check(r, "fabric.cabling"));
  CHECK(find_check(r, "fabric.cabling")->verdict == Verdict::Fail);
  CHECK(find_check(r, "fabric.cabling")->count == 1);
  CHECK(find_check(r, "fabric.cabling")->found == "1 degraded-link");
  CHECK(find_check(r, "fabric.hcas")->verdict == Verdict::Warn);
  CHECK(find_check(r, "fabric.uplinks")->verdict == Verdict::Fail);
  CHECK(find_check(r, "fabric.sweep")->verdict == Verdict::Pass);
  CHECK(find_check(r, "slurm.topology")->verdict == Verdict::Pass);
  CHECK(find_check(r, "nodes.layout")->verdict == Verdict::Fail);
}

TEST_CASE("report checks: the worst check decides the verdict, warnings alone give warn and exit 3, a failure fail and exit 4") {
  CommissionReport r;
  r.findings.push_back(fabric_finding(Anomaly::Kind::UnresolvedHca, "leaf01"));
  decide_checks(r);
  CHECK(r.verdict == Verdict::Warn);
  CHECK(r.exit_code() == 3);
  r.findings.push_back(fabric_finding(Anomaly::Kind::Loopback, "s1[1] - s1[2]"));
  decide_checks(r);
  CHECK(r.verdict == Verdict::Fail);
  CHECK(r.exit_code() == 4);
  r.findings.clear();
  decide_checks(r);
  CHECK(r.verdict == Verdict::Pass);
  CHECK(r.exit_code() == 0);
}

TEST_CASE("report checks: a check counts the things its findings are about, not the lines") {
  // topograph's dump: 74 unnamed HCAs reported as one line per leaf (19 lines).
  CommissionReport r;
  r.findings.push_back(fabric_finding(Anomaly::Kind::UnresolvedHca, "leaf01", 8));
  r.findings.push_back(fabric_finding(Anomaly::Kind::UnresolvedHca, "leaf02", 5));
  decide_checks(r);
  REQUIRE(find_check(r, "fabric.hcas"));
  CHECK(find_check(r, "fabric.hcas")->count == 13);
  CHECK(find_check(r, "fabric.hcas")->found == "13 unresolved-hca");
}

TEST_CASE("report checks: an information finding is listed and passes") {
  CommissionReport r;
  r.findings.push_back(fabric_finding(Anomaly::Kind::SecondaryLeaf, "storage01"));
  decide_checks(r);
  REQUIRE(find_check(r, "fabric.rails"));
  CHECK(find_check(r, "fabric.rails")->verdict == Verdict::Pass);
  CHECK(find_check(r, "fabric.rails")->count == 0);
  CHECK(find_check(r, "fabric.rails")->found == "1 secondary-leaf (info)");
  CHECK(r.verdict == Verdict::Pass);
}

// Every kind graph/ defines is decided by the check its declaration names, with its severity:
// no kind falls through to a catch-all (topograph's crossed-rails, missing-leaf and partial-host
// once did, and the rails check passed with a crossed rail on the page).
TEST_CASE("report checks: every finding kind is decided by the check it declares") {
  std::vector<FindingKind> kinds(std::begin(kAnomalyKinds), std::end(kAnomalyKinds));
  kinds.insert(kinds.end(), std::begin(kNodeAnomalyKinds), std::end(kNodeAnomalyKinds));
  kinds.insert(kinds.end(), std::begin(kInputFindingKinds), std::end(kInputFindingKinds));
  kinds.insert(kinds.end(), std::begin(kPerformanceFindingKinds), std::end(kPerformanceFindingKinds));
  kinds.insert(kinds.end(), std::begin(kMeasuredFindingKinds), std::end(kMeasuredFindingKinds));
  kinds.insert(kinds.end(), std::begin(kDomainFindingKinds), std::end(kDomainFindingKinds));
  std::set<std::string> names;
  for (const FindingKind& k : kinds) {
    CAPTURE(k.name);
    CHECK(names.insert(k.name).second);  // one name, one kind
    REQUIRE(find_finding_check(k.check));
    CHECK(std::string(k.fires).size() > 10);
    CommissionReport r;
    r.classes.emplace_back();  // so that nodes.layout is shown
    r.findings.push_back(make_finding("fabric", k, "x", "y"));
    decide_checks(r);
    const Check* c = find_check(r, k.check);
    REQUIRE(c);
    const Verdict expected = k.severity == Severity::Fail ? Verdict::Fail
                             : k.severity == Severity::Warn ? Verdict::Warn
                                                            : Verdict::Pass;
    CHECK(c->verdict == expected);
    CHECK(c->found.find(k.name) != std::string::npos);
    CHECK(r.verdict == expected);
  }
  // The two enums' to_string are the tables' names, in enum order.
  for (size_t i = 0; i < static_cast<size_t>(Anomaly::Kind::Count); ++i)
    CHECK(std::string(to_string(static_cast<Anomaly::Kind>(i))) == kAnomalyKinds[i].name);
  for (size_t i = 0; i < static_cast<size_t>(NodeAnomaly::Kind::Count); ++i)
    CHECK(std::string(to_string(static_cast<NodeAnomaly::Kind>(i))) == kNodeAnomalyKinds[i].name);
  for (size_t i = 0; i < static_cast<size_t>(InputFinding::Kind::Count); ++i)
    CHECK(std::string(to_string(static_cast<InputFinding::Kind>(i))) == kInputFindingKinds[i].name);
}

TEST_CASE("report checks: a topology.conf slurmctld would refuse fails the report") {
  CommissionReport r;
  r.slurm.push_back({"topology.conf", "", {"line 3: switch s1 listed twice"}, {}, "slurm.topology", "slurmctld"});
  decide_checks(r);
  CHECK(find_check(r, "slurm.topology")->verdict == Verdict::Fail);
  CHECK(r.verdict == Verdict::Fail);
}

TEST_CASE("report checks: the report's own finding kinds are on docs/findings.md as declared") {
  std::ifstream in(std::string(SLURMTOPO_SOURCE_DIR) + "/docs/findings.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!doc.empty());
  std::vector<FindingKind> kinds(std::begin(kPerformanceFindingKinds), std::end(kPerformanceFindingKinds));
  kinds.insert(kinds.end(), std::begin(kMeasuredFindingKinds), std::end(kMeasuredFindingKinds));
  kinds.insert(kinds.end(), std::begin(kDomainFindingKinds), std::end(kDomainFindingKinds));
  for (const FindingKind& k : kinds) {
    CAPTURE(k.name);
    CHECK(doc.find(std::string("| `") + k.name + "` | `" + k.check + "` | " + to_string(k.severity) + " |") !=
          std::string::npos);
  }
}

TEST_CASE("report checks: port counters above their thresholds fail fabric.errors with the cable-errors findings") {
  const CommissionReport& r = counters_report();
  const Check* errors = find_check(r, "fabric.errors");
  REQUIRE(errors);
  CHECK(errors->verdict == Verdict::Fail);
  CHECK(errors->found == "2 cable-errors, 1 congestion, 1 upstream-errors");
  CHECK(r.verdict == Verdict::Fail);
  CHECK(r.exit_code() == 4);
  // The bad cable seen from the switch, and the receive errors at dgx003's end of its cable.
  CHECK(has_finding(r, "cable-errors", "su1-rail0[1] - dgx001 mlx5_0"));
  CHECK(has_finding(r, "cable-errors", "dgx003 mlx5_0 - su2-rail0[1]"));
  for (const Finding& f : r.findings)
    if (f.kind == "cable-errors") {
      CHECK(f.check == "fabric.errors");
      CHECK(f.severity == Severity::Fail);
    }
  // Every port of the file is on this fabric.
  REQUIRE(find_check(r, "inputs.match"));
  CHECK(find_check(r, "inputs.match")->verdict == Verdict::Pass);
}

TEST_CASE("report checks: without --counters there is no fabric.errors check, not a passed one") {
  const CommissionReport& r = no_counters_report();
  CHECK_FALSE(find_check(r, "fabric.errors"));
  CHECK(r.verdict == Verdict::Pass);
  for (const Finding& f : r.findings) CHECK(f.check != "fabric.errors");
}
