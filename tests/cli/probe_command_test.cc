// `slurmtopo probe`, run as an admin would: --dry-run prints the script, without it the script
// is written to DIR/probe.sbatch; a host the fabric lacks is exit 2 with nothing written.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {
const std::string kSuperpod = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/superpod-4su.topo";
}  // namespace

TEST_CASE("slurmtopo probe: --dry-run prints the script, else it is written to DIR/probe.sbatch") {
  Scratch s;
  const std::string args = "probe --fabric " + kSuperpod + " --nodes 'dgx[001-064]' -o " + s.path("probe") + " -p gpu";
  const auto dry = run(args + " --dry-run");
  REQUIRE_MESSAGE(dry.code == 0, dry.output);
  CHECK(dry.output.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(dry.output.find("#SBATCH --partition=gpu\n") != std::string::npos);
  CHECK(dry.output.find(" || true\n") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.path("probe")));
  const auto wrote = run(args);
  REQUIRE_MESSAGE(wrote.code == 0, wrote.output);
  CHECK(wrote.output.rfind("slurmtopo probe: wrote " + s.path("probe/probe.sbatch") + ": ", 0) == 0);
  CHECK(wrote.output.find("submit it with: sbatch ") != std::string::npos);
  CHECK(s.read("probe/probe.sbatch") == dry.output);  // the same bytes
}

TEST_CASE("slurmtopo probe: a host the fabric lacks is exit 2, named with the nearest, nothing written") {
  Scratch s;
  const auto r = run("probe --fabric " + kSuperpod + " --nodes 'dgx[001-004],dgz005' -o " + s.path("probe"));
  CHECK(r.code == 2);
  CHECK(r.output.find("--nodes: expected hosts of the fabric; `dgz005` is not in it (did you mean dgx005?)") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.path("probe")));
  CHECK(run("probe --fabric " + kSuperpod + " --nodes 'dgx[001-004]' -o " + s.path("p") + " --gpus-per-node -1").code == 2);
}
