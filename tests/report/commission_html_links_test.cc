#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML links: the bad cables, and the leaf short of an uplink marked") {
  std::ostringstream out;
  html_links(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("su2-rail6[24] - rail6-spine01[24]") != std::string::npos);
  CHECK(s.find("<tr class=\"fail\"><td>su4-rail5</td>") != std::string::npos);
  std::ostringstream clean;
  html_links(fattree_report(), clean);
  CHECK(clean.str().find("No degraded, missing, crossed or looped cable.") != std::string::npos);
  CHECK(clean.str().find("2.00:1") != std::string::npos);  // the sample's 2:1 leaves
}
