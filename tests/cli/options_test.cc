// The rules every command shares (cli/options.cc): the Slurm release is resolved once and the
// same way by every command that writes or emulates something Slurm-specific: --slurm-version,
// else what the installed Slurm prints, else 22.05 said on stderr; a release slurmtopo does not
// know is refused with one message whichever command is given it.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using slurmtopo::testing::Run;
using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

const std::string kSource = SLURMTOPO_SOURCE_DIR;
const std::string kFabric = kSource + "/samples/fattree-2level.topo";
const std::string kIpa20 = kSource + "/../shared/nodes/flux-core/ipa20.xml";

// "PATH=DIR" where DIR holds only a fake `scontrol` printing `printed` (or nothing at all).
std::string path_with_scontrol(const Scratch& s, const std::string& printed) {
  std::filesystem::create_directories(s.path("bin"));
  if (!printed.empty()) {
    s.write("bin/scontrol", "#!/bin/sh\necho '" + printed + "'\n");
    std::filesystem::permissions(s.path("bin/scontrol"), std::filesystem::perms::owner_all);
  }
  return "PATH=" + s.path("bin");
}

// Every command that takes --slurm-version, with the inputs it needs (nothing written).
std::vector<std::string> commands_taking_a_release() {
  const std::string fabric = " --fabric " + kFabric;
  return {"emit topology" + fabric,
          "emit gres --node-class 'ipa[1-4]=" + kIpa20 + "'",
          "emit nodes --node-class 'ipa[1-4]=" + kIpa20 + "'",
          "report" + fabric + " -o /dev/null",
          "place" + fabric + " --nodes 'node[01-08]' -N 2",
          "whatif" + fabric + " --profile h100-ndr -N 2",
          "apply" + fabric + " --slurm-conf " + kSource + "/samples/slurm.conf --dry-run"};
}

std::string without_comments(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line))
    if (line.rfind('#', 0) != 0) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("--slurm-version: every command refuses a release it does not know, with the same message") {
  for (const std::string bad : {"21.08", "27.11", "24.07"}) {
    for (const std::string& command : commands_taking_a_release()) {
      CAPTURE(command);
      const Run r = run(command + " --slurm-version " + bad);
      CHECK(r.code == 2);
      CHECK(r.output.find("slurmtopo: --slurm-version: Slurm " + bad + " (--slurm-version " + bad +
                          ") is not a release slurmtopo knows: it knows 22.05, 23.02, 23.11, 24.05, 24.11, 25.05, "
                          "25.11, 26.05") != std::string::npos);
    }
  }
}

TEST_CASE("the installed Slurm decides the release when --slurm-version is not given, in every command") {
  if (!std::filesystem::exists(kIpa20)) return slurmtopo::testing::skip(kIpa20 + " is not available");
  Scratch s;
  const std::string path = path_with_scontrol(s, "slurm 24.11.5");
  const std::string ipa = " --node-class 'ipa[1-4]=" + kIpa20 + "'";
  // 24.11's slurmctld refuses a GPU bound to part of a socket (slurm/release.h CoreRule): the
  // gres.conf is 24.11's, whole sockets, and its header says why that release.
  const Run gres = run("emit gres" + ipa, path);
  REQUIRE_MESSAGE(gres.code == 0, gres.output);
  CHECK(gres.output.find("# for Slurm 24.11 (scontrol --version: slurm 24.11.5)\n") != std::string::npos);
  CHECK(gres.output.find("Cores= widened for Slurm 24.11") != std::string::npos);
  const Run asked = run("emit gres" + ipa + " --slurm-version 24.11");
  CHECK(asked.output.find("# for Slurm 24.11 (--slurm-version 24.11)\n") != std::string::npos);
  CHECK(without_comments(gres.output) == without_comments(asked.output));

  const Run nodes = run("emit nodes" + ipa, path);
  CHECK(nodes.output.find("# for Slurm 24.11 (scontrol --version: slurm 24.11.5)\n") != std::string::npos);
  const Run topology = run("emit topology --fabric " + kFabric + " --plugin block", path);
  CHECK_MESSAGE(topology.code == 0, topology.output);  // block needs 23.11: 24.11 has it
  CHECK(topology.output.find("# for Slurm 24.11 (scontrol --version: slurm 24.11.5)\n") != std::string::npos);
  const Run place = run("place --fabric " + kFabric + " --nodes 'node[01-08]' -N 2 --explain", path);
  CHECK(place.output.find("slurm: Slurm 24.11 (scontrol --version: slurm 24.11.5), whose node selection is 24.05's") !=
        std::string::npos);
  const Run whatif = run("whatif --fabric " + kFabric + " --profile h100-ndr -N 2", path);
  CHECK(whatif.output.find("node selection of Slurm 24.11 (scontrol --version: slurm 24.11.5)") != std::string::npos);

  // A release it does not know, printed by the installed Slurm, is refused by name too.
  Scratch t;
  const Run newer = run("emit gres" + ipa, path_with_scontrol(t, "slurm 27.11.0"));
  CHECK(newer.code == 2);
  CHECK(newer.output.find("Slurm 27.11 (scontrol --version: slurm 27.11.0) is not a release slurmtopo knows") !=
        std::string::npos);
}

TEST_CASE("no --slurm-version and no Slurm installed: 22.05, the default, said on stderr and in the header") {
  Scratch s;
  const Run r = run("emit topology --fabric " + kFabric, path_with_scontrol(s, ""));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("slurmtopo: warning: no --slurm-version and no Slurm on PATH (scontrol, slurmctld, slurmd): "
                      "working for Slurm 22.05, the default") != std::string::npos);
  CHECK(r.output.find("# for Slurm 22.05 (the default, as no --slurm-version was given and no Slurm is installed "
                      "here)\n") != std::string::npos);
  // Asked for, nothing is said.
  const Run asked = run("emit topology --fabric " + kFabric + " --slurm-version 22.05", path_with_scontrol(s, ""));
  CHECK(asked.output.find("warning: no --slurm-version") == std::string::npos);
}
