#include "base/numbers.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("whole numbers: digits only, at least the minimum, the option named when not") {
  CHECK(parse_whole_number("-N", "16", 1) == 16);
  CHECK(parse_whole_number("--weights", "0", 0) == 0);
  for (const char* bad : {"", "0", "-1", "1.5", "8x", " 8", "1234567890123456789"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_whole_number("-N", bad, 1), doctest::Contains("-N: expected a whole number of at least 1"),
                         InputError);
  }
}
