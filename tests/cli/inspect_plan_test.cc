// `slurmtopo inspect --plan` and `report --plan` as an admin runs them: the fabric as handed
// over (a generated dump) is the plan, the fabric swept today has two host cables swapped at a
// leaf (generate --swap-cables). The swap is named once with its fix; the report's fabric.plan
// check fails on it, and is not shown without a plan.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_support.h"

using namespace slurmtopo::testing;

namespace {

const std::string kGenerate = "generate railopt --scalable-units 2 --hosts-per-su 4 --rails 2 -k 16 --speed NDR";

}  // namespace

TEST_CASE("inspect --plan: two swapped cables named once, with the ports to swap") {
  Scratch s;
  REQUIRE(run(kGenerate + " -o " + s.path("plan.topo")).code == 0);
  Run gen = run(kGenerate + " --swap-cables 'su1-rail0[1],su1-rail0[2]' -o " + s.path("today.topo"));
  REQUIRE_MESSAGE(gen.code == 0, gen.output);
  Run r = run("inspect --fabric " + s.path("today.topo") + " --plan " + s.path("plan.topo"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("cabling plan (" + s.path("plan.topo") + "): 30 of 32 planned cables as planned; 32 cables in "
                      "the fabric; 1 finding\n") != std::string::npos);
  CHECK(r.output.find("plan-swapped-cables  su1-rail0 ports 1 and 2: dgx001 mlx5_0 is in su1-rail0 port 2") !=
        std::string::npos);
  // Against itself: every cable as planned, no finding.
  Run same = run("inspect --fabric " + s.path("plan.topo") + " --plan " + s.path("plan.topo"));
  CHECK(same.output.find("32 of 32 planned cables as planned") != std::string::npos);
  CHECK(same.output.find("plan-") == std::string::npos);
}

TEST_CASE("report --plan: the fabric.plan check fails on the swap, and is absent without a plan") {
  Scratch s;
  REQUIRE(run(kGenerate + " -o " + s.path("plan.topo")).code == 0);
  REQUIRE(run(kGenerate + " --swap-cables 'su1-rail0[1],su1-rail0[2]' -o " + s.path("today.topo")).code == 0);
  Run r = run("report --fabric " + s.path("today.topo") + " --plan " + s.path("plan.topo") + " --slurm-version 24.11 -o " +
              s.path("r.html") + " --json " + s.path("r.json"));
  REQUIRE_MESSAGE(r.code == 4, r.output);  // FAIL: some check fails
  const auto j = nlohmann::json::parse(s.read("r.json"));
  bool seen = false;
  for (const auto& c : j["checks"])
    if (c["id"] == "fabric.plan") {
      seen = true;
      CHECK(c["verdict"] == "fail");
    }
  CHECK(seen);
  Run without = run("report --fabric " + s.path("today.topo") + " --slurm-version 24.11 -o " + s.path("w.html") +
                    " --json " + s.path("w.json"));
  REQUIRE_MESSAGE(without.code != 2, without.output);
  const auto w = nlohmann::json::parse(s.read("w.json"));
  for (const auto& c : w["checks"]) CHECK(c["id"] != "fabric.plan");
}
