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

TEST_CASE("report HTML drawing: one SVG with its title, a box per group, the flagged ones red with a count") {
  std::ostringstream out;
  html_drawing(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<svg id=\"fabric-drawing\"") != std::string::npos);
  CHECK(s.find("role=\"img\" aria-labelledby=\"drawing-title drawing-desc\"") != std::string::npos);
  CHECK(count(s, "data-level=") == 5);  // boxes: su1..su4 and the spines
  CHECK(count(s, "<g class=\"box has-findings\"") == 5);
  CHECK(count(s, "class=\"flagged\"") == 1);  // the degraded cable's line
  CHECK(s.find("Where the findings are") != std::string::npos);
  std::ostringstream clean;
  html_drawing(fattree_report(), clean);
  CHECK(count(clean.str(), "has-findings") == 0);
}
