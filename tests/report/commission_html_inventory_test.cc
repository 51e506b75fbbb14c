#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML inventory: fabrics with their planes, switches per level, rails, node classes") {
  std::ostringstream out;
  html_inventory(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<td>superpod-4su</td>") != std::string::npos);
  CHECK(s.find("<td>8</td><td>complete</td>") != std::string::npos);  // 8 rail planes, one sweep
  CHECK(s.find("<td>leaf</td><td>32</td>") != std::string::npos);
  CHECK(s.find("<td>rail 8 (mlx5_7)</td><td>4</td>") != std::string::npos);  // rails by position, as inspect counts them
  CHECK(s.find("<td>dgx[001-064]</td><td>64</td>") != std::string::npos);
}
