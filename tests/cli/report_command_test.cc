// `slurmtopo report` as an admin or a cron job runs it, on the bundled samples.
#include <doctest/doctest.h>

#include "base/version.h"
#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Run;
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

TEST_CASE("report --nvlink-domains: a domain short of its peers and a node in none warn nodes.nvlink, exit 3") {
  Scratch s;
  Run gen = run("generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 --radix 16 -o " + s.path("f.topo"));
  REQUIRE_MESSAGE(gen.code == 0, gen.output);
  const std::string a = "5e797fc6-0f46-421a-8724-0e102c0f723c", b = "5e797fc6-0f46-421a-8724-0e102c0f721e";
  // Two NVLink domains of 4 nodes, the second with dgx008 gone from the file.
  std::string domains;
  for (int i = 1; i <= 7; ++i) domains += "dgx00" + std::to_string(i) + ": " + (i <= 4 ? a : b) + "\n";
  const std::string file = s.write("domains.txt", domains);
  Run r = run("report --fabric " + s.path("f.topo") + " --nvlink-domains " + file + " --plugin block --slurm-version 24.11 -o " +
              s.path("r.html") + " --json " + s.path("r.json"));
  CHECK_MESSAGE(r.code == 3, r.output);
  CHECK(r.output.find("warn  nodes.nvlink: 1 nvlink-domain-short, 1 nvlink-domain-unknown") != std::string::npos);
  const std::string json = s.read("r.json");
  CHECK(json.find("\"subject\": \"block_" + b + "\"") != std::string::npos);
  CHECK(json.find("holds 3 nodes (dgx[005-007]) where the largest holds 4") != std::string::npos);
  CHECK(json.find("\"subject\": \"dgx008\"") != std::string::npos);
  // Both domains whole: the check passes.
  s.write("domains.txt", domains + "dgx008: " + b + "\n");
  r = run("report --fabric " + s.path("f.topo") + " --nvlink-domains " + file + " --plugin block --slurm-version 24.11 -o " + s.path("r.html"));
  CHECK_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("pass  nodes.nvlink: nothing wrong") != std::string::npos);
}
