// What a new user meets first: --version, a mistyped command or option named with the valid
// one, `slurmtopo help CMD`, and the exit code 2 for all of them.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {
std::string cmake_project_version() {
  std::ifstream in(std::string(SLURMTOPO_SOURCE_DIR) + "/CMakeLists.txt");
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex(R"(project\(slurmtopo VERSION ([0-9.]+))")));
  return m[1];
}
}  // namespace

TEST_CASE("slurmtopo --version: CMake's project VERSION, and the headers of the files it writes carry it") {
  const std::string version = cmake_project_version();
  const auto r = run("--version");
  CHECK(r.code == 0);
  CHECK(r.output == "slurmtopo " + version + "\n");
  const std::string fabric = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo";
  const auto topo = run("emit topology --fabric " + fabric);
  REQUIRE(topo.code == 0);
  CHECK(topo.output.find("written by slurmtopo " + version + ".") != std::string::npos);
}

TEST_CASE("slurmtopo: a mistyped command or option is named with the nearest valid one, exit 2") {
  auto r = run("inspekt");
  CHECK(r.code == 2);
  CHECK(r.output.find("unknown command 'inspekt'; did you mean inspect?") != std::string::npos);
  r = run("emit topolgy --fabric x");
  CHECK(r.code == 2);
  CHECK(r.output.find("did you mean topology?") != std::string::npos);
  r = run("inspect --fabirc x");
  CHECK(r.code == 2);
  CHECK(r.output.find("unknown option '--fabirc' of `slurmtopo inspect`; did you mean --fabric?") != std::string::npos);
  r = run("frobnicate");
  CHECK(r.code == 2);
  CHECK(r.output.find("the commands are inspect, emit") != std::string::npos);
}

TEST_CASE("slurmtopo help CMD: the command's own --help — a wrong name is exit 2 with the nearest") {
  const auto help = run("help emit topology");
  CHECK(help.code == 0);
  CHECK(help.output == run("emit topology --help").output);
  CHECK(help.output.find("--slurm-conf") != std::string::npos);
  CHECK(run("help").output == run("--help").output);
  CHECK(run("help apply").output.find("Exit status:") != std::string::npos);
  const auto bad = run("help emit topolgy");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("did you mean topology?") != std::string::npos);
}

TEST_CASE("-o - is stdout, byte for byte what the command prints without -o, for every command that writes") {
  const std::string samples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/";
  const std::string superpod = " --fabric " + samples + "superpod-4su.topo";
  for (const std::string& command : std::vector<std::string>{"emit topology" + superpod, "emit topology --format yaml --slurm-version 25.05" + superpod,
        "emit gres --nodes-dir " + samples + "nodes", "emit nodes --nodes-dir " + samples + "nodes",
        "generate fattree --levels 2 --radix 8", "generate railopt --scalable-units 1 --hosts-per-su 4 --rails 2 -k 16",
        "whatif" + superpod + " --profile h100-ndr -N 8 --samples 2", "whatif" + superpod + " --profile h100-ndr -N 8 --sbatch 2"}) {
    CAPTURE(command);
    const auto plain = run(command);
    REQUIRE_MESSAGE(plain.code == 0, plain.output);
    CHECK_FALSE(plain.output.empty());
    const auto dash = run(command + " -o -");
    CHECK(dash.code == 0);
    CHECK(dash.output == plain.output);
  }
  // report needs somewhere to write: -o - is the page on stdout, the same as -o FILE holds.
  Scratch s;
  const std::string report = "report --fabric " + samples + "fattree-2level.topo -o ";
  REQUIRE(run(report + s.path("r.html")).code == 0);
  const auto dash = run(report + "-");
  CHECK(dash.code == 0);
  CHECK(dash.output.find(s.read("r.html")) != std::string::npos);  // with the verdict on stderr
  CHECK(dash.output.find("verdict: pass") != std::string::npos);
}
