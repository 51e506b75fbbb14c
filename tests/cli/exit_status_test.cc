// Every command's --help ends with its exit codes (base/exit_codes.h: 0 done, 1 internal error,
// 2 bad input, 3 look before relying on it, 4 the cluster fails a check), and report gives each
// verdict its own code.
#include <doctest/doctest.h>

#include <regex>
#include <set>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {
const std::string kSamples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/";

// Every command path the completion script lists.
std::vector<std::string> commands() {
  const auto r = run("completion bash");
  std::vector<std::string> out;
  const std::regex row(R"(    '([^']*)'\) subs=)");
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), row); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

std::string exit_status_of(const std::string& command) {
  const std::string help = run(command + " --help").output;
  const auto at = help.find("\nExit status:\n");
  if (at == std::string::npos) return "";
  const auto end = help.find("\n\n", at + 1);
  return help.substr(at + 1, end == std::string::npos ? std::string::npos : end - at);
}
}  // namespace

TEST_CASE("exit status: every command's --help lists 0, 1 (internal error) and 2 (bad input)") {
  const auto all = commands();
  CHECK(all.size() > 15);
  for (const auto& c : all) {
    INFO(c);
    const std::string codes = exit_status_of(c);
    CHECK(codes.find("\n  0  ") != std::string::npos);
    CHECK(codes.find("\n  1  internal error") != std::string::npos);
    CHECK(codes.find("\n  2  bad input") != std::string::npos);
  }
}

TEST_CASE("exit status: the codes beyond 2, each where it is used") {
  CHECK(exit_status_of("report").find("  3  WARN") != std::string::npos);
  CHECK(exit_status_of("report").find("  4  FAIL") != std::string::npos);
  CHECK(exit_status_of("apply").find("  3  the apply failed after writing and was rolled back") != std::string::npos);
  CHECK(exit_status_of("apply").find("  4  more anomalies in the fabric than --max-anomalies") != std::string::npos);
  CHECK(exit_status_of("place").find("  3  the job cannot start now") != std::string::npos);
  CHECK(exit_status_of("discover fabric").find("  3  the sweep missed part of the fabric") != std::string::npos);
  CHECK(exit_status_of("collect").find("  3  a node delivered no export") != std::string::npos);
  CHECK(exit_status_of("").find("  4  the cluster fails a check") != std::string::npos);
  CHECK(exit_status_of("emit topology").find("  3  ") == std::string::npos);
}

TEST_CASE("exit status: report exits 0 on PASS, 3 on WARN, 4 on FAIL") {
  Scratch s;
  const std::string fat = "report --fabric " + kSamples + "fattree-2level.topo --json " + s.path("r.json");
  CHECK(run(fat).code == 0);
  // The same fabric against a topology.conf in service that differs from it (one flat leaf): a warning.
  const std::string old = s.write("old.conf", "SwitchName=all Nodes=cn[001-064]\n");
  const auto warn = run(fat + " --topology " + old);
  CHECK(warn.output.find("verdict: warn") != std::string::npos);
  CHECK(warn.code == 3);
  const auto fail = run("report --fabric " + kSamples + "superpod-4su.topo --config " + kSamples + "site.yaml --json " +
                        s.path("f.json"));
  CHECK(fail.output.find("verdict: fail") != std::string::npos);
  CHECK(fail.code == 4);
}

TEST_CASE("exit status: place's job that cannot start now is 3, bad input 2") {
  Scratch s;
  const std::string topo = s.write("t.conf", "SwitchName=s1 Nodes=n[1-4]\n");
  CHECK(run("place --topology " + topo + " --nodes 'n[1-4]' -N 2").code == 0);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-4]' -N 2 --busy 'n[1-3]'").code == 3);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-4]' -N 0").code == 2);
}
