#include <doctest/doctest.h>

#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

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

TEST_CASE("report checks: the worst check decides the verdict, warnings alone give warn and exit 1") {
  CommissionReport r;
  r.findings.push_back({"fabric", "unresolved-hca", "0x1 \"MT4129\"", "factory-default node description"});
  decide_checks(r);
  CHECK(r.verdict == Verdict::Warn);
  CHECK(r.exit_code() == 1);
  r.findings.push_back({"fabric", "loopback", "s1[1] - s1[2]", "cable from the switch back to itself"});
  decide_checks(r);
  CHECK(r.verdict == Verdict::Fail);
  r.findings.clear();
  decide_checks(r);
  CHECK(r.verdict == Verdict::Pass);
  CHECK(r.exit_code() == 0);
}

TEST_CASE("report checks: a finding kind no rule knows still warns") {
  CommissionReport r;
  r.findings.push_back({"fabric", "some-new-kind", "s1", "new in graph/"});
  decide_checks(r);
  REQUIRE(find_check(r, "other"));
  CHECK(find_check(r, "other")->found == "1 some-new-kind");
  CHECK(r.verdict == Verdict::Warn);
}

TEST_CASE("report checks: a topology.conf slurmctld would refuse fails the report") {
  CommissionReport r;
  r.slurm.push_back({"topology.conf", "", {"line 3: switch s1 listed twice"}, {}, "slurm.topology", "slurmctld"});
  decide_checks(r);
  CHECK(find_check(r, "slurm.topology")->verdict == Verdict::Fail);
  CHECK(r.verdict == Verdict::Fail);
}
