#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {
size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("report HTML performance: a log-axis chart with a curve and a limit line per placement, and the table") {
  std::ostringstream out;
  html_performance(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<svg id=\"busbw-chart\"") != std::string::npos);
  CHECK(s.find("(log scale)") != std::string::npos);
  CHECK(s.find(">1 KiB</text>") != std::string::npos);
  CHECK(s.find(">4 GiB</text>") != std::string::npos);
  CHECK(count(s, "<polyline") == superpod_report().performance->curves.size());
  CHECK(count(s, "class=\"limit\"") == superpod_report().performance->curves.size());
  CHECK(s.find("<td>physical limit</td>") != std::string::npos);
  CHECK(s.find("id=\"spread-packed\"") != std::string::npos);
  CHECK(s.find("slurmtopo whatif -N 16,32 --busy dgx[005,010,021,040]") != std::string::npos);
  CHECK(s.find("id=\"spread-packed-16\"") != std::string::npos);
  CHECK(s.find("16-node job: spread over 4 leaves") != std::string::npos);
  CHECK(count(s, "loss against best") == 2);
  CommissionRequest none = fattree_request();
  none.profile.clear();
  std::ostringstream empty;
  html_performance(plan_commission(none), empty);
  CHECK(empty.str().empty());
}
