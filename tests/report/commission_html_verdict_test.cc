#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML verdict: the overall verdict, a row per check with its badge, a row per finding") {
  std::ostringstream out;
  html_verdict(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<div class=\"verdict fail\"") != std::string::npos);
  CHECK(s.find("11 checks: 4 failed, 1 warned, 6 passed; 9 findings (exit code 4)") != std::string::npos);
  CHECK(s.find("<tr class=\"fail\" data-check=\"fabric.cabling\">") != std::string::npos);
  CHECK(s.find("<tr class=\"warn\" data-check=\"fabric.hcas\">") != std::string::npos);
  CHECK(s.find("id=\"finding-8\"") != std::string::npos);
  std::ostringstream clean;
  html_verdict(fattree_report(), clean);
  CHECK(clean.str().find("No finding.") != std::string::npos);
}
