// Cabling plans in every form `--plan` reads, as an admin uses them: the cable list generate
// --format plan writes, a plan naming devices otherwise (with and without --plan-name-map), a
// real ibdm topology file (ibutils' demo fat tree, tests/data/ibdm/) against the fabric it
// describes (generate from-plan), a unit cabled one port off, and the report's plan section.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_test_support.h"

using namespace slurmtopo::testing;

namespace {

const std::string kGenerate = "generate railopt --scalable-units 2 --hosts-per-su 4 --rails 2 -k 16 --speed NDR";
const std::string kIbdm = std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/ibdm/network.topo";

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("generate --format plan: the cable list of the generated fabric, which --plan reads as the fabric itself") {
  Scratch s;
  Run plan = run(kGenerate + " --format plan -o " + s.path("plan.csv"));
  REQUIRE_MESSAGE(plan.code == 0, plan.output);
  const std::string csv = s.read("plan.csv");
  CHECK(csv.find("a_device,a_type,a_port,b_device,b_type,b_port,width,speed\n") != std::string::npos);
  CHECK(csv.find("su1-rail0,switch,1,dgx001,host,mlx5_0,4x,NDR\n") != std::string::npos);
  REQUIRE(run(kGenerate + " -o " + s.path("fabric.topo")).code == 0);
  Run same = run("inspect --fabric " + s.path("fabric.topo") + " --plan " + s.path("plan.csv"));
  REQUIRE_MESSAGE(same.code == 0, same.output);
  CHECK(same.output.find("32 of 32 planned cables as planned; 32 cables in the fabric; 0 findings") != std::string::npos);
  REQUIRE(run(kGenerate + " --swap-cables 'su1-rail0[1],su1-rail0[2]' -o " + s.path("today.topo")).code == 0);
  Run swapped = run("inspect --fabric " + s.path("today.topo") + " --plan " + s.path("plan.csv"));
  CHECK(swapped.output.find("plan-swapped-cables  su1-rail0 ports 1 and 2: dgx001 mlx5_0 is in su1-rail0 port 2") !=
        std::string::npos);
  CHECK(count_of(swapped.output, "\n  plan-") == 1);
  // Same input, same bytes.
  REQUIRE(run(kGenerate + " --format plan -o " + s.path("again.csv")).code == 0);
  CHECK(s.read("again.csv") == csv);
}

TEST_CASE("--plan-name-map: a plan that names the leaves otherwise matches once the map relates the names") {
  Scratch s;
  REQUIRE(run(kGenerate + " --format plan -o " + s.path("plan.csv")).code == 0);
  REQUIRE(run(kGenerate + " -o " + s.path("fabric.topo")).code == 0);
  s.write("renamed.csv", std::regex_replace(s.read("plan.csv"), std::regex("su1-rail0,"), "R01-L0,"));
  Run without = run("inspect --fabric " + s.path("fabric.topo") + " --plan " + s.path("renamed.csv"));
  CHECK(without.output.find("plan-missing-device  R01-L0: in the plan with") != std::string::npos);
  CHECK(without.output.find("plan-unknown-device  su1-rail0: in the fabric with") != std::string::npos);
  s.write("names.map", "# plan name, fabric name\nR01-L0 su1-rail0\n");
  Run with = run("inspect --fabric " + s.path("fabric.topo") + " --plan " + s.path("renamed.csv") + " --plan-name-map " +
                 s.path("names.map"));
  REQUIRE_MESSAGE(with.code == 0, with.output);
  CHECK(with.output.find("32 of 32 planned cables as planned") != std::string::npos);
  CHECK(with.output.find("plan-") == std::string::npos);
}

TEST_CASE("a real ibdm topology file: ibutils' demo fat tree against the fabric it describes, then with a swap") {
  Scratch s;
  Run gen = run("generate from-plan " + kIbdm + " -o " + s.path("demo.topo"));
  REQUIRE_MESSAGE(gen.code == 0, gen.output);
  Run same = run("inspect --fabric " + s.path("demo.topo") + " --plan " + kIbdm);
  REQUIRE_MESSAGE(same.code == 0, same.output);
  CHECK(same.output.find("256 of 256 planned cables as planned; 256 cables in the fabric; 0 findings") != std::string::npos);
  CHECK(same.output.find("plan-") == std::string::npos);
  Run g2 = run("generate from-plan " + kIbdm + " --swap-cables 'SL1-1[1],SL1-1[2]' --move-cable 'SL1-8[1],SL1-8[12]' -o " +
               s.path("today.topo"));
  REQUIRE_MESSAGE(g2.code == 0, g2.output);
  Run today = run("inspect --fabric " + s.path("today.topo") + " --plan " + kIbdm);
  CHECK(today.output.find("plan-swapped-cables  SL1-1 ports 1 and 2: H-1 port 1 is in SL1-1 port 2 and H-2 port 1 in "
                          "SL1-1 port 1, the plan has them the other way (" + kIbdm + ":6)") != std::string::npos);
  // The plan itself gives four leaves 11 uplinks instead of 12: the model says so, plan or not.
  CHECK(count_of(today.output, "\n  missing-uplinks  SL1-") == 4);
  CHECK(today.output.find("plan-wrong-port  SL1-8[1] - H-85 port 1: the cable from H-85 port 1 is in SL1-8 port 12, the "
                          "plan has SL1-8 port 1 (" + kIbdm + ":188): move the cable in SL1-8 port 12 to port 1") !=
        std::string::npos);
  CHECK(count_of(today.output, "\n  plan-") == 2);
}

TEST_CASE("report --plan: the plan section counts per unit and per leaf, in the page, the Markdown and the JSON") {
  Scratch s;
  REQUIRE(run(kGenerate + " --format plan -o " + s.path("plan.csv")).code == 0);
  REQUIRE(run(kGenerate + " --offset-unit su1 -o " + s.path("today.topo")).code == 0);
  Run r = run("report --fabric " + s.path("today.topo") + " --plan " + s.path("plan.csv") + " --slurm-version 24.11 -o " +
              s.path("r.html") + " --json " + s.path("r.json") + " --md " + s.path("r.md"));
  REQUIRE_MESSAGE(r.code == 4, r.output);
  const auto j = nlohmann::json::parse(s.read("r.json"));
  REQUIRE(j["plans"].size() == 1);
  const auto& plan = j["plans"][0];
  CHECK(plan["planned"] == 32);
  CHECK(plan["present"] == 24);
  CHECK(plan["findings"] == 8);
  CHECK(plan["finding_indices"].size() == 8);
  bool su1 = false, su2 = false;
  for (const auto& u : plan["units"]) {
    if (u["unit"] == "su1") {
      su1 = true;
      CHECK(u["findings"] == 8);
      // Its leaves' uplinks are as planned, none of their host cables.
      CHECK(u["present"] == u["planned"].get<int>() - 8);
    }
    if (u["unit"] == "su2") {
      su2 = true;
      CHECK(u["findings"] == 0);
      CHECK(u["present"] == u["planned"]);
    }
  }
  CHECK(su1);
  CHECK(su2);
  for (const auto& sw : plan["switches"])
    if (sw["name"] == "su1-rail0") CHECK(sw["unit"] == "su1");
  for (int i : plan["finding_indices"]) CHECK(j["findings"][i]["kind"] == "plan-wrong-port");
  const std::string html = s.read("r.html");
  CHECK(html.find("<section id=\"plan\"><h2>Cabling against the plan</h2>") != std::string::npos);
  CHECK(html.find("move the cable in su1-rail0 port 2 to port 1") != std::string::npos);
  const std::string md = s.read("r.md");
  CHECK(md.find("## Cabling against the plan") != std::string::npos);
  CHECK(md.find("| su1 | 2 |") != std::string::npos);
  // inspect --json carries the same counts.
  Run ij = run("inspect --fabric " + s.path("today.topo") + " --plan " + s.path("plan.csv") + " --json");
  const auto i = nlohmann::json::parse(ij.output);
  CHECK(i["plans"][0]["present"] == 24);
  CHECK(i["plans"][0]["findings"] == 8);
}

TEST_CASE("the sample against its plan: each of its four faults said once, by the plan, with the ports") {
  Scratch s;
  const std::string samples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/";
  REQUIRE(run("generate railopt --scalable-units 4 --hosts-per-su 16 --rails 8 --sharp --format plan -o " +
              s.path("plan.csv")).code == 0);
  Run r = run("inspect --fabric " + samples + "superpod-4su.topo --config " + samples + "site.yaml --plan " +
              s.path("plan.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("1059 of 1064 planned cables as planned; 1063 cables in the fabric; 4 findings (in place of 4 "
                      "findings of other checks about the same cables)") != std::string::npos);
  CHECK(r.output.find("\n  plan-swapped-cables  su1-rail3 port 5 and su2-rail3 port 5: dgx005 mlx5_3 is in su2-rail3 "
                      "port 5 and dgx021 mlx5_3 in su1-rail3 port 5") != std::string::npos);
  CHECK(r.output.find("\n  plan-missing-cable  su4-rail5[32] - rail5-spine01[64]: ") != std::string::npos);
  CHECK(r.output.find("\n  plan-slow-cable  su2-rail6[24] - rail6-spine01[24]: runs at 1xNDR, the plan says 4xNDR") !=
        std::string::npos);
  CHECK(r.output.find(": an HCA no host name claims, in su3-rail6 port 8, where the plan has dgx040 mlx5_6") !=
        std::string::npos);
  CHECK(count_of(r.output, "\n  plan-") == 4);
  // Said once: the symmetry and rate checks' findings about the same cables are gone; the
  // unnamed HCA's own finding (its description needs setting) stays.
  for (const char* kind : {"\n  miscabled-rail ", "\n  missing-uplinks ", "\n  degraded-link "}) {
    CAPTURE(kind);
    CHECK(r.output.find(kind) == std::string::npos);
  }
  CHECK(r.output.find("\n  unresolved-hca  su3-rail6") != std::string::npos);
  // Without the plan they are all there.
  Run alone = run("inspect --fabric " + samples + "superpod-4su.topo --config " + samples + "site.yaml");
  CHECK(count_of(alone.output, "\n  miscabled-rail ") == 2);
  CHECK(count_of(alone.output, "\n  missing-uplinks ") == 1);
  CHECK(count_of(alone.output, "\n  degraded-link ") == 1);
}
