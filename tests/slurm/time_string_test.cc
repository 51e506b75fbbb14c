#include "slurm/time_string.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("Slurm time strings: every form time_str2secs reads") {
  CHECK(slurm_time_seconds("--switches", "5") == 5 * 60);
  CHECK(slurm_time_seconds("--switches", "5:30") == 5 * 60 + 30);
  CHECK(slurm_time_seconds("--switches", "1:02:03") == 3600 + 2 * 60 + 3);
  CHECK(slurm_time_seconds("--switches", "2-3") == (2 * 24 + 3) * 3600);
  CHECK(slurm_time_seconds("--switches", "2-3:04") == (2 * 24 + 3) * 3600 + 4 * 60);
  CHECK(slurm_time_seconds("--switches", "2-3:04:05") == (2 * 24 + 3) * 3600 + 4 * 60 + 5);
}

TEST_CASE("Slurm time strings: anything else names the option and what was expected") {
  for (const char* bad : {"", "x", "1:2:3:4", "-5", "1.5"}) {
    CAPTURE(bad);
    try {
      slurm_time_seconds("--switches", bad);
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(e.file() == "--switches");
      CHECK(std::string(e.what()).find("expected") != std::string::npos);
    }
  }
}
