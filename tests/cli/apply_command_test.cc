// `slurmtopo apply` before it reaches slurmctld: the exit-code table in --help, values checked
// by the parser, bad input as exit 2 with nothing written, and the textfile even then.
#include <doctest/doctest.h>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

TEST_CASE("apply --help: the exit codes, one table") {
  const auto r = run("apply --help");
  CHECK(r.code == 0);
  CHECK(r.output.find("Exit status:") != std::string::npos);
  for (const std::string line : {"  0  nothing to do", "  1  internal error", "  2  bad input", "  3  the apply failed",
                                 "  4  more anomalies"})
    CHECK(r.output.find(line) != std::string::npos);
}

TEST_CASE("apply: a bad fabric file is exit 2, nothing written beside slurm.conf, textfile says refused") {
  Scratch s;
  const std::string conf = s.write("slurm.conf", "ClusterName=t\nSlurmctldHost=localhost\nNodeName=cn[001-004] CPUs=8\n");
  const std::string fabric = s.write("bad.topo", "Switch 36 \"S-1\" # \"leaf\" port 0\n[1] garbage\n");
  const std::string textfile = s.path("textfile");
  REQUIRE(run("completion bash >/dev/null && mkdir " + textfile).code == 0);
  const auto r = run("apply --fabric " + fabric + " --slurm-conf " + conf + " --textfile " + textfile);
  CHECK(r.code == 2);
  CHECK(r.output.find("refused: nothing written, slurmctld untouched") != std::string::npos);
  CHECK(r.output.find("bad.topo") != std::string::npos);
  CHECK_FALSE(s.exists("topology.conf"));
  CHECK(s.read("textfile/slurmtopo.prom").find("slurmtopo_last_apply_result{result=\"refused\"} 1") != std::string::npos);
}

TEST_CASE("apply --what: topology and gres in any case — anything else is refused by the parser") {
  Scratch s;
  const std::string conf = s.write("slurm.conf", "ClusterName=t\nNodeName=cn1\n");
  const auto r = run("apply --fabric " + conf + " --slurm-conf " + conf + " --what topology,nodez");
  CHECK(r.code == 2);
  CHECK(r.output.find("nodez") != std::string::npos);
}
