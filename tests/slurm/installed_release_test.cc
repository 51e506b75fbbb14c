// The default release: what `scontrol --version` prints, else 22.05.
#include "slurm/installed_release.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("installed release: scontrol --version as each release prints it") {
  auto a = parse_scontrol_version("slurm 22.05.8\n");
  REQUIRE(a);
  CHECK(to_string(a->release) == "22.05");
  CHECK(a->printed == "slurm 22.05.8");
  auto b = parse_scontrol_version("slurm-wlm 24.11.5");
  REQUIRE(b);
  CHECK(to_string(b->release) == "24.11");
  CHECK_FALSE(parse_scontrol_version("bash: scontrol: command not found"));
  CHECK_FALSE(parse_scontrol_version(""));
}

TEST_CASE("installed release: --slurm-version wins and says so — a bad one is refused") {
  const TargetRelease t = target_release("25.05");
  CHECK(to_string(t.release) == "25.05");
  CHECK(t.how == "--slurm-version 25.05");
  CHECK_THROWS_AS(target_release("25"), InputError);
  const TargetRelease d = target_release("");
  // Where Slurm is installed (the host's 22.05), what it says; else 22.05, said so.
  const auto installed = installed_slurm_release();
  if (installed) {
    CHECK(d.release == installed->release);
    CHECK(d.how == installed->printed);
    CHECK((d.how.rfind("scontrol --version: slurm", 0) == 0 || d.how.rfind("slurmctld -V: slurm", 0) == 0 ||
           d.how.rfind("slurmd -V: slurm", 0) == 0));
  } else {
    CHECK(d.how == "no Slurm installed here, so 22.05");
  }
}
