#include "slurm/ranges.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("ranges as Slurm writes them") {
  CHECK(format_ranges({}) == "");
  CHECK(format_ranges({3}) == "3");
  CHECK(format_ranges({0, 1, 2, 5, 7, 8}) == "0-2,5,7-8");
}

TEST_CASE("ranges as Slurm reads them: sorted, unique, and nothing else accepted") {
  std::vector<int> out;
  CHECK(parse_ranges("28-30,0-1,1", out));
  CHECK(out == std::vector<int>{0, 1, 28, 29, 30});
  for (const char* bad : {"", "a", "3-1", "-2", "1,,2", "0-2000000"}) {
    CAPTURE(bad);
    std::vector<int> v;
    CHECK_FALSE(parse_ranges(bad, v));
  }
  std::vector<int> round;
  CHECK(parse_ranges(format_ranges({0, 1, 2, 5, 7, 8}), round));
  CHECK(round == std::vector<int>{0, 1, 2, 5, 7, 8});
}
