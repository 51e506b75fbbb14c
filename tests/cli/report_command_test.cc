// `slurmtopo report` as an admin or a cron job runs it, on the bundled samples.
#include <doctest/doctest.h>

#include "base/version.h"
#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {
const std::string kSamples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/";
}  // namespace

TEST_CASE("report command: the SuperPOD sample fails its checks (exit 4) and every rendering is written") {
  Scratch s;
  const auto r = run("report --fabric " + kSamples + "superpod-4su.topo --config " + kSamples + "site.yaml --nodes-dir " +
                     kSamples + "nodes -o " + s.path("r.html") + " --json " + s.path("r.json") + " --md " + s.path("r.md"));
  CHECK(r.code == 4);
  CHECK(r.output.find("verdict: fail") != std::string::npos);
  CHECK(r.output.find("fail  fabric.cabling: 1 degraded-link") != std::string::npos);
  CHECK(s.read("r.html").find("<!DOCTYPE html>") == 0);
  CHECK(s.read("r.json").find("\"verdict\": \"fail\"") != std::string::npos);
  CHECK(s.read("r.json").find("\"slurmtopo_version\": \"" + slurmtopo::slurmtopo_version() + "\"") != std::string::npos);
  CHECK(s.read("r.md").find("# Commissioning report: FAIL") == 0);
}

TEST_CASE("report command: the fault-free fat tree passes (exit 0)") {
  Scratch s;
  const auto r = run("report --fabric " + kSamples + "fattree-2level.topo --json " + s.path("r.json"));
  CHECK(r.code == 0);
  CHECK(r.output.find("verdict: pass") != std::string::npos);
}

TEST_CASE("report command: the Slurm files it shows say to regenerate them with emit topology, for its release") {
  Scratch s;
  const auto r = run("report --fabric " + kSamples + "fattree-2level.topo --slurm-version 24.11 --plugin block --json " +
                     s.path("r.json"));
  CHECK(r.code == 0);
  const std::string json = s.read("r.json");
  CHECK(json.find("slurmtopo emit topology --fabric " + kSamples + "fattree-2level.topo --slurm-version 24.11\\n") !=
        std::string::npos);
  CHECK(json.find("--slurm-version 24.11 --plugin block\\n") != std::string::npos);
  CHECK(json.find("# for Slurm 24.11 (--slurm-version 24.11)") != std::string::npos);
  CHECK(json.find("#   slurmtopo report") == std::string::npos);
}

TEST_CASE("report command: bad input exits 2 naming the file, and writes nothing") {
  Scratch s;
  const auto bad = s.write("bad.json", "{\"format\": \"slurmtopo-report\", \"schema_version\": 7}\n");
  const auto r = run("report --fabric " + kSamples + "fattree-2level.topo --baseline " + bad + " -o " + s.path("r.html") +
                     " --json " + s.path("r.json"));
  CHECK(r.code == 2);
  CHECK(r.output.find(bad + ":1:") != std::string::npos);
  CHECK_FALSE(s.exists("r.html"));
  CHECK_FALSE(s.exists("r.json"));
  const auto none = run("report --fabric " + kSamples + "fattree-2level.topo");
  CHECK(none.code == 2);
  CHECK(none.output.find("expected somewhere to write the report") != std::string::npos);
}
