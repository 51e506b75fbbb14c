// `slurmtopo whatif --drain-errored` as an admin runs it, on the ibsim fabric of
// tests/data/counters and the ibqueryerrors output captured there: the two cables with
// cable-errors are taken out and named with their counters, the congested and the upstream
// one stay, and the run, its shards and its job array carry the counters along.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "discover/counters_file.h"
#include "discover/fabric_file.h"
#include "discover/snapshot.h"
#include "tests/cli/cli_test_support.h"

using namespace slurmtopo::testing;

namespace {

const std::string kData = std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/counters/";
const std::string kWhatif = "whatif --fabric " + kData + "fabric.ibnetdiscover --profile h100-ndr --slurm-version 24.11 -N 2 --samples 6";
const std::string kCounters = " --counters " + kData + "ibqueryerrors.txt";

const std::vector<std::string> kEdits = {
    "remove the erroring cable su1-rail0[1] - dgx001 mlx5_0 (cable-errors: SymbolErrorCounter 500, "
    "LinkErrorRecoveryCounter 12 at su1-rail0[1])",
    "remove the erroring cable su2-rail0[1] - dgx003 mlx5_0 (cable-errors: PortRcvErrors 25 at dgx003 mlx5_0)"};

}  // namespace

TEST_CASE("whatif --drain-errored: the cables with cable-errors out, before and after compared") {
  Run r = run(kWhatif + kCounters + " --drain-errored --json");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  CHECK(j["run"]["mode"] == "edits");
  CHECK(j["run"]["edits"] == kEdits);  // not the congested spine cable, not su2-rail0[3]'s upstream errors
  CHECK(j["run"]["notes"][0] == "2 nodes lost an HCA cable and count as down");
  const auto& row = j["summary"]["sizes"][0];
  CHECK(row["before"]["started"].get<int>() >= row["after"]["started"].get<int>());
  for (const auto& rec : j["records"])
    if (rec["jobs"][0]["after"]["started"].get<bool>())
      CHECK(rec["jobs"][0]["after"]["hostlist"] == "dgx[002,004]");  // the two hosts whose cables are good
  // The text report names each edit; the same input gives the same bytes.
  Run text = run(kWhatif + kCounters + " --drain-errored");
  REQUIRE(text.code == 0);
  for (const auto& e : kEdits) CHECK(text.output.find("edit: " + e + "\n") != std::string::npos);
  CHECK(run(kWhatif + kCounters + " --drain-errored").output == text.output);
}

TEST_CASE("whatif --drain-errored: a snapshot that carries its counters needs no --counters") {
  Scratch s;
  std::vector<slurmtopo::Fabric> fabrics = slurmtopo::load_fabric_file(kData + "fabric.ibnetdiscover");
  fabrics[0].counters = slurmtopo::load_counters_file(kData + "ibqueryerrors.txt");
  const std::string snapshot = s.write("swept.json", slurmtopo::snapshot_to_json({fabrics}));
  Run r = run("whatif --fabric " + snapshot + " --profile h100-ndr --slurm-version 24.11 -N 2 --samples 6 --drain-errored --json");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(nlohmann::json::parse(r.output)["run"]["edits"] == kEdits);
}

TEST_CASE("whatif --drain-errored: nothing to judge or nothing to drain exits 2 naming the option") {
  Run none = run(kWhatif + " --drain-errored");
  CHECK(none.code == 2);
  CHECK(none.output.find("--drain-errored: no port counters to judge the cables by: give --counters FILE") != std::string::npos);
  Run unused = run(kWhatif + kCounters);
  CHECK(unused.code == 2);
  CHECK(unused.output.find("--counters: whatif reads port counters only to drain the cables they condemn: add "
                           "--drain-errored") != std::string::npos);
  Scratch s;
  const std::string site =
      s.write("site.yaml", "counter_thresholds: {SymbolErrorCounter: 1000, LinkErrorRecoveryCounter: 100, PortRcvErrors: 100}\n");
  Run clean = run(kWhatif + kCounters + " --config " + site + " --drain-errored -o " + s.path("out.txt"));
  CHECK(clean.code == 2);
  CHECK(clean.output.find("--drain-errored: no cable end is over a cable-errors threshold in ") != std::string::npos);
  CHECK(clean.output.find("nothing to drain (2 cable ends are over congestion, upstream-errors or config-errors") !=
        std::string::npos);
  CHECK_FALSE(s.exists("out.txt"));
}

TEST_CASE("whatif --drain-errored: shards merge into the unsharded run, and the job array carries the counters") {
  Scratch s;
  const std::string args = kWhatif + kCounters + " --drain-errored";
  Run whole = run(args);
  REQUIRE(whole.code == 0);
  for (int i = 0; i < 2; ++i)
    REQUIRE(run(args + " --shard " + std::to_string(i) + "/2 -o " + s.path("shard" + std::to_string(i) + ".json")).code == 0);
  Run merged = run("whatif merge " + s.path("shard0.json") + " " + s.path("shard1.json"));
  CHECK(merged.code == 0);
  CHECK(merged.output == whole.output);
  // A relative --counters path is made absolute for the tasks, which run elsewhere.
  const std::string relative = std::filesystem::relative(kData + "ibqueryerrors.txt").string();
  REQUIRE(relative.front() != '/');
  Run sbatch = run(kWhatif + " --counters " + relative + " --drain-errored --sbatch 2");
  REQUIRE_MESSAGE(sbatch.code == 0, sbatch.output);
  CHECK(sbatch.output.find(" --counters " + std::filesystem::path(kData + "ibqueryerrors.txt").lexically_normal().string() +
                           " ") != std::string::npos);
  CHECK(sbatch.output.find(" --drain-errored ") != std::string::npos);
}
