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

TEST_CASE("topology forms: a release that cannot read one is refused naming the release that added it") {
  auto message = [](SlurmRelease have, TopologyForm form) {
    try {
      require_release(have, form, "--format yaml", "--slurm-version " + to_string(have));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message({22, 5}, TopologyForm::Yaml) ==
        "--format yaml: topology.yaml needs Slurm 25.05 or later (added in 25.05); the files are for Slurm 22.05 "
        "(--slurm-version 22.05)");
  CHECK(message({24, 11}, TopologyForm::Yaml).find("added in 25.05") != std::string::npos);
  CHECK(message({25, 5}, TopologyForm::Yaml).empty());
  CHECK(message({23, 2}, TopologyForm::BlockConf).find("topology/block needs Slurm 23.11") != std::string::npos);
  CHECK(message({23, 11}, TopologyForm::BlockConf).empty());
  CHECK(message({22, 5}, TopologyForm::TreeConf).empty());
  CHECK_FALSE(blocks_may_have_gaps({24, 11}));
  CHECK(blocks_may_have_gaps({25, 5}));
}
