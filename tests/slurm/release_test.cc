#include "slurm/release.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("--slurm-version: YY.MM, anything else is bad input") {
  CHECK(parse_slurm_release("22.05") == SlurmRelease{22, 5});
  CHECK(parse_slurm_release("25.11") == SlurmRelease{25, 11});
  CHECK(to_string(parse_slurm_release("24.11")) == "24.11");
  CHECK(to_string(SlurmRelease{23, 2}) == "23.02");
  for (const char* bad : {"", "22", "22.5.1", "v22.05", "22.13", "2205", "22.x"})
    CHECK_THROWS_AS(parse_slurm_release(bad), InputError);
}
