#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML baseline: new, fixed and still open findings, hosts and cables added and gone") {
  CommissionReport r = superpod_report();
  BaselineFacts old;
  old.findings = {r.findings[0], make_finding("fabric", finding_kind(Anomaly::Kind::Loopback), "s1[1] - s1[2]",
                                                "cable from the switch back to itself")};
  old.hosts = {"dgx001", "gone001"};
  r.baseline = diff_baseline(old, r, "last-week.json");
  std::ostringstream out;
  html_baseline(r, out);
  const std::string s = out.str();
  CHECK(s.find("Against last-week.json") != std::string::npos);
  CHECK(s.find("<tr class=\"fail\"><td>new</td>") != std::string::npos);
  CHECK(s.find("<td>fixed</td><td>loopback</td>") != std::string::npos);
  CHECK(s.find("<td>still open</td><td>" + r.findings[0].kind + "</td>") != std::string::npos);
  CHECK(s.find("<li>gone001</li>") != std::string::npos);
  std::ostringstream none;
  html_baseline(fattree_report(), none);
  CHECK(none.str().empty());
}
