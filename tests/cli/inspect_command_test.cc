// `slurmtopo inspect`: the summary an admin reads, the JSON an automation parses, and the
// snapshot that lets every command run offline.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

#include "base/version.h"
#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using namespace slurmtopo::testing;

namespace {
const std::string kPublic = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/";
}

TEST_CASE("inspect --json: counts, groups and anomalies an automation can rely on") {
  Scratch s;
  Run gen = run("generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 --radix 16 --sharp -o " + s.path("f.topo"));
  REQUIRE_MESSAGE(gen.code == 0, gen.output);
  Run r = run("inspect --json --fabric " + s.path("f.topo"));
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["slurmtopo_version"] == slurmtopo::slurmtopo_version());
  CHECK(j["hosts"] == 8);
  CHECK(j["groups"].size() == 2);
  CHECK(j["groups"][0]["name"] == "su1");
  CHECK(j["groups"][0]["nodes"] == "dgx[001-004]");
  CHECK(j["groups"][0]["leaves"].size() == 4);
  CHECK(j["fabrics"][0]["aggregation_nodes"] > 0);
  CHECK(j["rails"].size() == 4);
  CHECK(j["anomalies"].empty());
}

TEST_CASE("inspect --save: the snapshot reads back through --fabric to the same topology.conf") {
  Scratch s;
  REQUIRE(run("generate fattree --levels 3 --radix 8 --sharp -o " + s.path("f.topo")).code == 0);
  REQUIRE(run("inspect --fabric " + s.path("f.topo") + " --save " + s.path("snap.json")).code == 0);
  Run direct = run("emit topology --fabric " + s.path("f.topo") + " -o " + s.path("a.conf"));
  Run offline = run("emit topology --fabric " + s.path("snap.json") + " -o " + s.path("b.conf"));
  REQUIRE(direct.code == 0);
  REQUIRE_MESSAGE(offline.code == 0, offline.output);
  // Same model, same switches and nodes; only the regenerate command names another file.
  auto body = [](std::string t) { return t.substr(t.find("# level 1")); };
  CHECK(body(s.read("a.conf")) == body(s.read("b.conf")));
}

TEST_CASE("inspect: two subnets stay two fabrics with their own roots") {
  Scratch s;
  REQUIRE(run("generate fattree --radix 8 --host-prefix gpu -o " + s.path("ib0.topo")).code == 0);
  REQUIRE(run("generate fattree --radix 8 --host-prefix cpu --subnet 1 -o " + s.path("ib1.topo")).code == 0);
  Run r = run("emit topology --fabric " + s.path("ib0.topo") + " --fabric " + s.path("ib1.topo"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("2 roots") != std::string::npos);
  CHECK(r.output.find("no switch can reach all nodes") == std::string::npos);  // intended, not warned
  // Both generated fabrics name their switches alike: each is prefixed with its fabric.
  CHECK(r.output.find("SwitchName=ib0-leaf001 ") != std::string::npos);
  CHECK(r.output.find("SwitchName=ib1-leaf001 ") != std::string::npos);
}

TEST_CASE("inspect: rail planes given together are said to be joined, in text and JSON — separate subnets are not") {
  Scratch s;
  REQUIRE(run("generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --planes 2 -o " + s.path("rail")).code == 0);
  const std::string both = " --fabric " + s.path("rail-plane1.topo") + " --fabric " + s.path("rail-plane2.topo");
  Run text = run("inspect" + both);
  REQUIRE_MESSAGE(text.code == 0, text.output);
  CHECK(text.output.find("rail planes joined (the same hosts on each, one cluster): rail-plane1 + rail-plane2\n") !=
        std::string::npos);
  Run json = run("inspect --json" + both);
  REQUIRE(json.code == 0);
  CHECK(nlohmann::json::parse(json.output)["planes"] == nlohmann::json::parse(R"([["rail-plane1", "rail-plane2"]])"));
  // Two clusters on two subnets share no host: nothing joined.
  REQUIRE(run("generate fattree --radix 8 --host-prefix gpu -o " + s.path("ib0.topo")).code == 0);
  REQUIRE(run("generate fattree --radix 8 --host-prefix cpu --subnet 1 -o " + s.path("ib1.topo")).code == 0);
  Run apart = run("inspect --json --fabric " + s.path("ib0.topo") + " --fabric " + s.path("ib1.topo"));
  REQUIRE(apart.code == 0);
  CHECK(nlohmann::json::parse(apart.output)["planes"].empty());
  CHECK(run("inspect --fabric " + s.path("ib0.topo") + " --fabric " + s.path("ib1.topo")).output.find("rail planes") ==
        std::string::npos);
}

TEST_CASE("inspect: the same dump given twice is an error naming both files") {
  Scratch s;
  REQUIRE(run("generate fattree --radix 8 -o " + s.path("a.topo")).code == 0);
  REQUIRE(run("generate fattree --radix 8 --host-prefix cpu -o " + s.path("b.topo")).code == 0);
  Run r = run("emit topology --fabric " + s.path("a.topo") + " --fabric " + s.path("b.topo") + " -o " + s.path("t.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find(s.path("b.topo") + ": expected a subnet other than " + s.path("a.topo") + "'s") != std::string::npos);
  CHECK(r.output.find("the same dump given twice?") != std::string::npos);
  CHECK_FALSE(s.exists("t.conf"));
}

TEST_CASE("inspect: the X5 dump needs its GUID map to name any host") {
  if (!std::filesystem::exists(kPublic + "psmn_x5/X5.topofile")) {
    slurmtopo::testing::skip("../shared/fabrics/public is absent");
    return;
  }
  Run bare = run("inspect --fabric " + kPublic + "psmn_x5/X5.topofile");
  CHECK(bare.output.find("hosts: 0 in 0 groups; 89 HCAs unresolved") != std::string::npos);
  Run mapped = run("inspect --fabric " + kPublic + "psmn_x5/X5.topofile --node-name-map " + kPublic + "psmn_x5/X5.map");
  CHECK(mapped.output.find("hosts: 86 in 6 groups; 3 HCAs unresolved") != std::string::npos);
}

TEST_CASE("inspect: the topograph dump's unresolved HCAs, one line per leaf, every one in JSON") {
  if (!std::filesystem::exists(kPublic + "topograph/example.out")) return skip("../shared/fabrics/public is absent");
  Run text = run("inspect --fabric " + kPublic + "topograph/example.out");
  REQUIRE(text.code == 0);
  CHECK(text.output.find("unresolved-hca  B09-P1-IBLEAF-03-08: 4 unresolved HCAs on ports 3,7,9,21") != std::string::npos);
  CHECK(text.output.find("rail 3 (HCA-5, mlx5_4): 7 leaves") != std::string::npos);
  Run js = run("inspect --json --fabric " + kPublic + "topograph/example.out");
  REQUIRE(js.code == 0);
  const auto j = nlohmann::json::parse(js.output);
  REQUIRE(j["unresolved"].size() == 74);
  bool ubuntu = false;
  for (const auto& h : j["unresolved"])
    if (h["description"] == "ubuntu mlx5_0") {
      ubuntu = true;
      CHECK(h["cabled_to"][0]["switch"] == "B09-P1-IBLEAF-03-08");
      CHECK(h["cabled_to"][0]["port"] == 21);
    }
  CHECK(ubuntu);
  CHECK(j["rails"].size() == 4);
}

TEST_CASE("inspect/emit topology: a host number no hostlist can hold is a file:line error in a map (exit 2), unresolved in a dump") {
  // Held out: both exited 1 (std::invalid_argument from hostlist compression).
  Scratch s;
  const std::string fabric = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo";
  const std::string map = s.write("huge.map", "0xb83fd20300c00000 \"cn99999999999999999999 HCA-1\"\n");
  for (const std::string cmd : {"inspect", "emit topology"}) {
    CAPTURE(cmd);
    Run r = run(cmd + " --fabric " + fabric + " --node-name-map " + map);
    CHECK(r.code == 2);
    CHECK(r.output == "slurmtopo: " + map + ":1: expected a node name whose number a Slurm hostlist can hold; "
                      "`cn99999999999999999999` ends in a number above 18446744073709551615\n");
  }
  // The same name in the fabric's own node description: that HCA is unresolved, the rest is written.
  std::ifstream in(fabric);
  std::string text{std::istreambuf_iterator<char>(in), {}};
  for (size_t at; (at = text.find("# \"cn001 mlx5_0\"")) != std::string::npos;)
    text.replace(at, 16, "# \"cn99999999999999999999 mlx5_0\"");
  const std::string dump = s.write("huge.topo", text);
  Run e = run("emit topology --fabric " + dump);
  CHECK(e.code == 0);
  CHECK(e.output.find("warning: 1 HCA has no usable host name (see slurmtopo inspect)") != std::string::npos);
  CHECK(e.output.find("SwitchName=") != std::string::npos);
  Run i = run("inspect --fabric " + dump);
  CHECK(i.code == 0);
  CHECK(i.output.find("'cn99999999999999999999' is not a valid Slurm node name") != std::string::npos);
}

TEST_CASE("inspect --json: a node description that is not UTF-8 is written as U+FFFD, not an internal error") {
  Scratch s;
  std::ifstream in(std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo");
  std::string text{std::istreambuf_iterator<char>(in), {}};
  for (size_t at; (at = text.find("# \"cn001 mlx5_0\"")) != std::string::npos;)
    text.replace(at, 16, "# \"cn\xff" "001 mlx5_0\"");
  Run r = run("inspect --json --fabric " + s.write("latin1.topo", text));
  CHECK(r.code == 0);
  CHECK(r.output.find("cn\xef\xbf\xbd" "001") != std::string::npos);
  CHECK(nlohmann::json::accept(r.output));
}


TEST_CASE("inspect --measured: an nccl-tests run as read, nothing predicted, exit 0, bad input exit 2") {
  const std::string data = SLURMTOPO_SOURCE_DIR "/tests/data/nccl/";
  Run r = run("inspect --fabric " SLURMTOPO_SOURCE_DIR "/samples/superpod-4su.topo --measured " + data +
              "all_reduce_perf-2x8-h100-nccl-debug.out");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("all_reduce on gpu-[017-018]: 2 hosts x 8 = 16 ranks") != std::string::npos);
  CHECK(r.output.find("      8 GiB             374.31          366.55        0") != std::string::npos);
  CHECK(r.output.find("average bus bandwidth 132.17 GB/s") != std::string::npos);
  CHECK(r.output.find("predicted") == std::string::npos);
  Scratch s;
  std::ofstream(s.path("x.out")) << "not a run\n";
  r = run("inspect --fabric " SLURMTOPO_SOURCE_DIR "/samples/superpod-4su.topo --measured " + s.path("x.out"));
  CHECK(r.code == 2);
  CHECK(r.output.find(s.path("x.out") + ": expected nccl-tests output") != std::string::npos);
}
