// `slurmtopo whatif` as an admin runs it, on the bundled SuperPOD sample (4 SUs of 16 DGX
// H100, one uplink trained at 1x): policies, edits, replays, and shards that merge into the
// very bytes of the unsharded run.
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "slurm/hostlist.h"
#include "base/version.h"
#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using namespace slurmtopo::testing;

namespace {

const std::string kFabric = " --fabric " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/superpod-4su.topo --profile h100-ndr";

// A trace of 6 jobs on 8-CPU nodes (so 64 processors = 8 nodes).
const char* kTrace =
    "; Computer: test cluster\n"
    "; MaxProcs: 512\n"
    "1 0 0 3600 -1 -1 -1 64 7200 -1 1 1 1 1 1 1 -1 -1\n"
    "2 10 0 1800 -1 -1 -1 256 3600 -1 1 1 1 1 1 1 -1 -1\n"
    "3 20 0 600 -1 -1 -1 8 1200 -1 1 1 1 1 1 1 -1 -1\n"
    "4 30 0 7200 -1 -1 -1 512 7200 -1 1 1 1 1 1 1 -1 -1\n"
    "5 40 0 60 -1 -1 -1 96 600 -1 1 1 1 1 1 1 -1 -1\n"
    "6 50 0 60 -1 -1 -1 1024 600 -1 1 1 1 1 1 1 -1 -1\n";  // 128 nodes: larger than the partition

nlohmann::json parsed(const Run& r) { return nlohmann::json::parse(r.output); }

}  // namespace

TEST_CASE("whatif: policies side by side, Slurm's row is what `place` says") {
  Run r = run("whatif" + kFabric + " -N 24 --busy 'dgx[001-004]'");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("24-node job") != std::string::npos);
  for (const char* p : {"\n  slurm ", "\n  no-topology ", "\n  best ", "\n  random "}) CHECK(r.output.find(p) != std::string::npos);
  CHECK(r.output.find("whatif [") == std::string::npos);  // no progress bar off a terminal
  Run place = run("place --fabric " + std::string(SLURMTOPO_SOURCE_DIR) +
                  "/samples/superpod-4su.topo --nodes 'dgx[001-064]' -N 24 --busy 'dgx[001-004]' --exclusive");
  REQUIRE(place.code == 0);
  const nlohmann::json j = parsed(run("whatif" + kFabric + " -N 24 --busy 'dgx[001-004]' --json"));
  CHECK(j["slurmtopo_version"] == slurmtopo::slurmtopo_version());
  const auto& policies = j["records"][0]["policies"];
  CHECK(policies[0]["policy"] == "slurm");
  CHECK(policies[0]["hostlist"].get<std::string>() + "\n" == place.output);
  // The best placement never spans more leaves than Slurm's, nor predicts a lower busbw here;
  // Slurm without topology runs over the SU boundaries and loses bandwidth.
  CHECK(policies[2]["leaves"].get<int>() <= policies[0]["leaves"].get<int>());
  CHECK(policies[2]["busbw_gbs"].get<double>() >= policies[0]["busbw_gbs"].get<double>());
  CHECK(policies[1]["busbw_gbs"].get<double>() < policies[0]["busbw_gbs"].get<double>());
}

TEST_CASE("whatif: removing the 1x cable raises the predicted busbw of jobs that crossed it") {
  Run r = run("whatif" + kFabric + " -N 32 --samples 10 --remove-cable su2-rail6,rail6-spine01 --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = parsed(r);
  CHECK(j["run"]["edits"][0] == "remove the cable between su2-rail6 and rail6-spine01");
  const auto& row = j["summary"]["sizes"][0];
  CHECK(row["after"]["mean_busbw_gbs"].get<double>() > row["before"]["mean_busbw_gbs"].get<double>());
  // The placements themselves do not change: the tree Slurm sees is the same.
  for (const auto& rec : j["records"]) {
    const auto& job = rec["jobs"][0];
    CHECK(job["before"]["started"] == job["after"]["started"]);
    if (job["before"]["started"].get<bool>()) CHECK(job["before"]["hostlist"] == job["after"]["hostlist"]);
  }
}

TEST_CASE("whatif: a switch out of service takes its hosts down") {
  Run r = run("whatif" + kFabric + " -N 8 --samples 5 --drain-switch su1-rail0 --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = parsed(r);
  CHECK(j["run"]["notes"][0] == "16 nodes lost an HCA cable and count as down");
  for (const auto& rec : j["records"])
    if (rec["jobs"][0]["after"]["started"].get<bool>())
      for (const auto& n : slurmtopo::expand_hostlist(rec["jobs"][0]["after"]["hostlist"].get<std::string>()))
        CHECK(n > "dgx016");  // su1's hosts lost their rail-0 cable
}

TEST_CASE("whatif --drain-switch: a unit's name as topology.conf prints it takes all its leaves, a GUID one switch") {
  // su1 in topology.conf is the unit of rail leaves su1-rail0..7: its hosts lose every cable,
  // but for dgx005, whose mlx5_3 is crossed to su2-rail3 (the sample's fault); dgx021, crossed
  // the other way onto su1-rail3, is the 17th host that loses one.
  Run r = run("whatif" + kFabric + " -N 8 --samples 5 --drain-switch su1 --json");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const nlohmann::json j = parsed(r);
  CHECK(j["run"]["notes"].dump().find("15 nodes lost every cable and count as down") != std::string::npos);
  CHECK(j["run"]["notes"].dump().find("17 nodes lost an HCA cable") != std::string::npos);
  // A switch by GUID (as ibnetdiscover prints it) is the same edit as by name.
  Run named = run("whatif" + kFabric + " -N 8 --samples 5 --drain-switch su1-rail0 --json");
  Run guid = run("whatif" + kFabric + " -N 8 --samples 5 --drain-switch 0xb83fd20300a00000 --json");
  CHECK(named.code == 0);
  CHECK(guid.code == 0);
  CHECK(parsed(named)["records"] == parsed(guid)["records"]);
  Run bad = run("whatif" + kFabric + " -N 8 --samples 5 --drain-switch su9");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("no switch named 'su9' (a switch or GUID as `slurmtopo inspect` prints them, or a SwitchName= "
                        "of the topology.conf `slurmtopo emit topology` writes)") != std::string::npos);
  Run cable = run("whatif" + kFabric + " -N 8 --samples 5 --remove-cable su1/3");
  CHECK(cable.code == 2);
  CHECK(cable.output.find("'su1' stands for 8 switches") != std::string::npos);
}

TEST_CASE("whatif: replay of an SWF trace") {
  Scratch s;
  const std::string trace = s.write("trace.swf", kTrace);
  Run r = run("whatif" + kFabric + " --workload " + trace + " --cpus-per-node 8 --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = parsed(r);
  CHECK(j["run"]["workload"]["jobs"] == 5);
  CHECK(j["run"]["workload"]["skipped_too_large"] == 1);
  REQUIRE(j["records"].size() == 2);
  CHECK(j["records"][0]["variant"] == "slurm");
  CHECK(j["records"][1]["variant"] == "no-topology");
  const auto& m = j["records"][0]["metrics"];
  CHECK(m["started"] == 5);
  CHECK(m["multi_node"] == 4);  // 8, 32, 64 and 12 nodes; job 3 has one
  CHECK(m["slowdown"]["count"] == 4);
  // Job 4 (64 nodes) waits for jobs 1 and 2 to end (1800 s after 10): the mean wait is above 0.
  CHECK(m["mean_wait_s"].get<double>() > 0);
  Run text = run("whatif" + kFabric + " --workload " + trace + " --cpus-per-node 8");
  CHECK(text.output.find("replay of " + trace + ": 5 jobs (skipped: 0 without size or run time, 1 larger than the partition)") !=
        std::string::npos);
}

TEST_CASE("whatif: a bad trace line exits 2 naming file and line, and writes nothing") {
  Scratch s;
  const std::string trace = s.write("trace.swf", "; header\n1 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n1 2 3\n");
  Run r = run("whatif" + kFabric + " --workload " + trace + " -o " + s.path("out.txt"));
  CHECK(r.code == 2);
  CHECK(r.output.find(trace + ":3: expected 18 fields, found 3") != std::string::npos);
  CHECK_FALSE(s.exists("out.txt"));
}

TEST_CASE("whatif: shards merge into the bytes of the unsharded run") {
  Scratch s;
  const std::vector<std::string> runs{
      " -N 8,24 --samples 7 --remove-cable su2-rail6/24",          // edits: 7 units
      " -N 4,16,40 --busy 'dgx[010-020]'",                          // policies: 3 units
      " --synthetic 150 --seed 4 --drain 'dgx[001-002]'",           // replay: 3 units
  };
  for (const auto& args : runs)
    for (const char* format : {"", " --json"}) {
      CAPTURE(args);
      Run whole = run("whatif" + kFabric + args + format);
      REQUIRE(whole.code == 0);
      std::string files;
      for (int i = 0; i < 3; ++i) {
        const std::string f = s.path("shard" + std::to_string(i) + ".json");
        REQUIRE(run("whatif" + kFabric + args + " --shard " + std::to_string(i) + "/3 -o " + f).code == 0);
        files = " " + f + files;  // merge in reverse order: order must not matter
      }
      Run merged = run("whatif merge" + files + format);
      CHECK(merged.code == 0);
      CHECK(merged.output == whole.output);
    }
}

TEST_CASE("whatif merge: incomplete or foreign shards exit 2") {
  Scratch s;
  REQUIRE(run("whatif" + kFabric + " -N 8 --samples 4 --add-spines 1 --shard 0/2 -o " + s.path("a.json")).code == 0);
  REQUIRE(run("whatif" + kFabric + " -N 8 --samples 4 --add-spines 2 --shard 1/2 -o " + s.path("b.json")).code == 0);
  Run missing = run("whatif merge " + s.path("a.json"));
  CHECK(missing.code == 2);
  CHECK(missing.output.find("units missing from the shards given: 2, 3") != std::string::npos);
  Run foreign = run("whatif merge " + s.path("a.json") + " " + s.path("b.json"));
  CHECK(foreign.code == 2);
  CHECK(foreign.output.find("a shard of another run") != std::string::npos);
}

TEST_CASE("whatif --sbatch: a job array of shards and a merge that waits for it") {
  Run r = run("whatif" + kFabric + " -N 16 --samples 8 --add-spines 1 --sbatch 4 --json");
  REQUIRE(r.code == 0);
  CHECK(r.output.rfind("#!/bin/bash\n", 0) == 0);
  CHECK(r.output.find("--array=0-3") != std::string::npos);
  CHECK(r.output.find("--shard \\\"\\$SLURM_ARRAY_TASK_ID/4\\\"") != std::string::npos);
  CHECK(r.output.find("--dependency=\"afterok:${array%%;*}\"") != std::string::npos);
  CHECK(r.output.find("whatif merge") != std::string::npos);
  CHECK(r.output.find(" " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/superpod-4su.topo ") != std::string::npos);
  CHECK(r.output.find(" --add-spines 1 ") != std::string::npos);
  CHECK(r.output.find("--json -o") != std::string::npos);
}

TEST_CASE("whatif --sbatch: the script's commands, run as Slurm would run them, give the unsharded output") {
  // A stand-in for sbatch that runs each --wrap command at once (array tasks one by one, with
  // SLURM_ARRAY_TASK_ID set) proves the script's quoting and file names; that Slurm runs job
  // arrays and dependencies is Slurm's part.
  Scratch s;
  s.write("sbatch",
          "#!/bin/bash\nwrap=; array=\nfor a in \"$@\"; do case $a in --wrap=*) wrap=${a#--wrap=};; "
          "--array=*) array=${a#--array=};; esac; done\n"
          "if [ -n \"$array\" ]; then for i in $(seq ${array%-*} ${array#*-}); do SLURM_ARRAY_TASK_ID=$i sh -c \"$wrap\" "
          "|| exit 1; done; else sh -c \"$wrap\" || exit 1; fi\necho 42\n");
  const std::string args = kFabric + " -N 16 --samples 6 --remove-cable su2-rail6/24";
  // -o writes the script (what the command would print), as for every other writing command.
  Run script = run("whatif" + args + " --sbatch 3 -o " + s.path("run.sh"));
  REQUIRE(script.code == 0);
  CHECK(script.output.empty());
  REQUIRE(s.exists("run.sh"));
  CHECK(s.read("run.sh").rfind("#!/bin/bash\n", 0) == 0);
  const std::string cmd = "cd " + s.dir.string() + " && chmod +x sbatch && PATH=" + s.dir.string() +
                          ":$PATH bash run.sh >/dev/null 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
  Run whole = run("whatif" + args);
  REQUIRE(whole.code == 0);
  CHECK(s.read("whatif.txt") == whole.output);
}

TEST_CASE("whatif: bad options exit 2 and name the option") {
  Run shard = run("whatif" + kFabric + " -N 8 --shard 4/4");
  CHECK(shard.code == 2);
  CHECK(shard.output.find("--shard") != std::string::npos);
  Run cable = run("whatif" + kFabric + " -N 8 --remove-cable nosuch/3");
  CHECK(cable.code == 2);
  CHECK(cable.output.find("--remove-cable: no switch named 'nosuch'") != std::string::npos);
  Run size = run("whatif" + kFabric + " -N 8,x");
  CHECK(size.code == 2);
  CHECK(run("whatif" + kFabric).code == 2);  // neither -N nor a workload
  CHECK(run("whatif --fabric " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/superpod-4su.topo -N 8").code == 2);
  Run drain = run("whatif" + kFabric + " -N 8 --drain 'cn[1-2]'");
  CHECK(drain.code == 2);
  CHECK(drain.output.find("--drain: node cn1 is not in --nodes") != std::string::npos);
}

TEST_CASE("whatif: -o writes the report atomically") {
  Scratch s;
  Run r = run("whatif" + kFabric + " -N 8 -o " + s.path("report.txt"));
  CHECK(r.code == 0);
  CHECK(r.output.empty());
  CHECK(s.read("report.txt") == run("whatif" + kFabric + " -N 8").output);
}

TEST_CASE("whatif: a progress bar on a terminal's stderr, never in the report") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    slurmtopo::testing::skip("util-linux `script` (to give the run a terminal) is not installed");
    return;
  }
  Scratch s;
  const std::string args = "whatif" + kFabric + " --synthetic 200 --seed 2";
  // script(1) runs the command on a pseudo-terminal: stderr is a terminal, stdout goes to a file.
  const std::string cmd = "script -qec \"" + std::string(SLURMTOPO_BINARY) + " " + args + " > " + s.path("report.txt") +
                          "\" /dev/null > " + s.path("terminal.txt") + " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  Run tty;
  tty.output = s.read("terminal.txt");
  CHECK(tty.output.find("whatif [") != std::string::npos);
  CHECK(tty.output.find("100 %") != std::string::npos);
  CHECK(s.read("report.txt") == run(args).output);
}

TEST_CASE("whatif: a replay with an edit compares the predicted busbw of every job") {
  Run r = run("whatif" + kFabric + " --synthetic 200 --seed 6 --remove-cable su2-rail6,rail6-spine01 --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = parsed(r);
  REQUIRE(j["records"].size() == 3);
  const auto& before = j["records"][0]["metrics"];
  const auto& after = j["records"][2]["metrics"];
  CHECK(j["records"][2]["variant"] == "slurm after edits");
  // Every multi-node job is costed, except those on dgx040, whose rail-6 HCA has no name.
  CHECK(before["busbw_gbs"]["count"].get<int>() <= before["multi_node"].get<int>());
  CHECK(before["busbw_gbs"]["count"].get<int>() > before["multi_node"].get<int>() * 3 / 4);
  // Same placements (the tree is unchanged), but no job is routed over the 1x cable any more.
  CHECK(after["span_leaves"] == before["span_leaves"]);
  CHECK(after["busbw_gbs"]["mean"].get<double>() > before["busbw_gbs"]["mean"].get<double>());
}

TEST_CASE("whatif --replace-topology: Slurm told one flat leaf splits jobs the real tree keeps whole") {
  // With the real tree, a 12-node job spans two SUs only when no SU has 12 free nodes; then
  // any placement must span two. Told that all nodes share one leaf, Slurm takes the first free
  // nodes, which can span SUs anyway: never fewer spanning placements, and here more.
  Scratch s;
  const std::string flat = s.write("flat.conf", "SwitchName=all Nodes=dgx[001-064]\n");
  Run r = run("whatif" + kFabric + " -N 12 --samples 20 --replace-topology " + flat + " --json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = parsed(r);
  CHECK(j["run"]["edits"][0] == "place with " + flat);
  const auto& row = j["summary"]["sizes"][0];
  CHECK(row["after"]["span_leaves"].get<int>() > row["before"]["span_leaves"].get<int>());
  CHECK(row["after"]["started"] == row["before"]["started"]);
}

TEST_CASE("whatif --topology, the old spelling of the edit, is refused with its new name") {
  Scratch s;
  const std::string flat = s.write("flat.conf", "SwitchName=all Nodes=dgx[001-064]\n");
  Run r = run("whatif" + kFabric + " -N 12 --topology " + flat);
  CHECK(r.code == 2);
  CHECK(r.output.find("option '--topology' of `slurmtopo whatif` is now --replace-topology") != std::string::npos);
}

TEST_CASE("whatif --nvlink-domains: on NVL72 racks a job inside a rack beats the same job spread over racks") {
  Scratch s;
  REQUIRE(run("generate railopt --scalable-units 8 --hosts-per-su 18 --rails 4 --nvlink-domain-nodes 18 "
              "--write-nvlink-domains " + s.path("d") + " -o " + s.path("f.topo")).code == 0);
  const std::string cmd = "whatif --fabric " + s.path("f.topo") + " --profile gb200-nvl72 -N 16 --routing adaptive --json";
  const nlohmann::json j = parsed(run(cmd + " --nvlink-domains " + s.path("d")));
  const auto& policies = j["records"][0]["policies"];
  REQUIRE(policies.size() == 4);
  CHECK(policies[0]["policy"] == "slurm");
  CHECK(policies[0]["leaves"] == 1);  // the emitted topology keeps it under one unit's leaves: one rack
  CHECK(policies[3]["policy"] == "random");
  CHECK(policies[3]["leaves"].get<int>() > 1);
  // In one rack NVLS runs over the rack's NVLink (~830 GB/s); spread over racks the tree between
  // them runs on a few NICs a rack: several times slower.
  const double in_rack = policies[0]["busbw_gbs"].get<double>(), spread = policies[3]["busbw_gbs"].get<double>();
  CHECK(in_rack > 800);
  CHECK(in_rack > 3 * spread);
  // Without the domains every tray is its own NCCL node and the rack's NVLink goes unseen.
  const nlohmann::json blind = parsed(run(cmd));
  CHECK(blind["records"][0]["policies"][0]["busbw_gbs"].get<double>() < in_rack / 2);
}
