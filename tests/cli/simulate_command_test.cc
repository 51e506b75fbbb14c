// `slurmtopo simulate` as an admin runs it, on the bundled samples.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "base/version.h"
#include "discover/node_json.h"
#include "graph/cluster_inputs.h"
#include "simulate/network/forwarding_tables.h"
#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

const std::string kSuperpod = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/superpod-4su.topo";
const std::string kFatTree = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo";

// The A100 node with one HDR NIC, as the 1-rail hosts of fattree-2level.topo have.
std::string one_nic() {
  static Scratch s;
  return s.write("a100-1nic.yaml", "base: a100-hdr\nname: a100-1nic\nnic: {per_node: 1}\n");
}

}  // namespace

TEST_CASE("simulate: a table per size with algorithm, time, algbw, busbw and the limit") {
  const auto r = run("simulate --fabric " + kSuperpod + " --profile h100-ndr --nodes 'dgx[001-004]'");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("profile h100-ndr (DGX H100") != std::string::npos);
  CHECK(r.output.find("allreduce on dgx[001-004]: 4 nodes x 8 GPUs = 32 ranks, 16 channels over 8 rails") !=
        std::string::npos);
  for (const char* size : {"1 KiB", "1 MiB", "16 MiB", "256 MiB", "1 GiB", "8 GiB"})
    CHECK(r.output.find(size) != std::string::npos);
  CHECK(r.output.find("latency") != std::string::npos);
  CHECK(r.output.find("NIC") != std::string::npos);
  // Same input, same bytes.
  CHECK(run("simulate --fabric " + kSuperpod + " --profile h100-ndr --nodes 'dgx[001-004]'").output == r.output);
}

TEST_CASE("simulate: the profile name works from any directory") {
  const std::string cmd = std::string("cd / && ") + SLURMTOPO_BINARY + " simulate --fabric " + kSuperpod +
                          " --profile b200-ndr --nodes dgx001 --sizes 1G 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  CHECK(pclose(p) == 0);
  CHECK(out.find("nvls/Simple") != std::string::npos);
}

TEST_CASE("simulate: --compare puts two placements side by side") {
  // Two 2:1 leaves of 8 hosts: a ring in host order crosses between them twice; alternating
  // the leaves sends every hop through the uplinks, which carry half of what 8 NICs send.
  const std::string alternating =
      "cn001,cn009,cn002,cn010,cn003,cn011,cn004,cn012,cn005,cn013,cn006,cn014,cn007,cn015,cn008,cn016";
  const auto r = run("simulate --fabric " + kFatTree + " --profile " + one_nic() + " --nodes 'cn[001-016]' --compare " +
                     alternating + " --algo ring --sizes 8G");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("A: allreduce on cn[001-016]") != std::string::npos);
  CHECK(r.output.find("B: allreduce on cn[001,009],cn[002,010],cn[003,011]") != std::string::npos);
  const size_t row = r.output.find("8 GiB");
  REQUIRE(row != std::string::npos);
  const std::string line = r.output.substr(row, r.output.find('\n', row) - row);
  const double ratio = std::stod(line.substr(line.rfind(' ') + 1));
  CHECK(ratio == doctest::Approx(0.51).epsilon(0.05));
}

TEST_CASE("simulate: hosts with fewer HCAs than the profile's NICs are reported once") {
  const auto r = run("simulate --fabric " + kFatTree + " --profile a100-hdr --nodes 'cn[001-004]' --sizes 1G");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("warning: cn[001-004]: 1 HCA for the profile's 8 NICs; rails share them\n") != std::string::npos);
}

TEST_CASE("simulate: --json adds the bottlenecks with their oversubscription") {
  const auto r = run("simulate --fabric " + kFatTree +
                     " --profile a100-hdr --nodes cn001,cn009,cn002,cn010 --algo ring --sizes 1G,8G --json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.output);
  CHECK(j["slurmtopo_version"] == slurmtopo::slurmtopo_version());
  CHECK(j["collective"] == "allreduce");
  CHECK(j["routing"] == "minhop");
  const auto& size = j["placements"][0]["sizes"][1];
  CHECK(size["bytes"] == 8589934592ull);
  CHECK(size["algorithm"] == "ring");
  CHECK(size["busbw_gbs"].get<double>() < size["ideal_busbw_gbs"].get<double>());
  const auto& b = size["bottlenecks"][0];
  CHECK(b["resource"].get<std::string>().find("->") != std::string::npos);
  CHECK(b["oversubscription"].get<double>() > 1.0);
  CHECK(b["capacity_gbs"].get<double>() == doctest::Approx(24.5));
  CHECK(size["terms_us"]["transfer"].get<double>() > 0);
}

TEST_CASE("simulate: bad input exits 2 and says what was expected") {
  const std::string base = "simulate --fabric " + kSuperpod + " ";
  struct Case {
    std::string args, expected;
  };
  Scratch s;
  const std::string bad = s.write("bad.yaml", "base: h100-ndr\ngpu:\n  sm: 91\n");
  const Case cases[] = {
      {"--profile h100-ndr --nodes dgx999", "`dgx999` is not in it"},
      {"--profile h100-ndr --nodes 'dgx[001-'", "--nodes"},
      {"--profile h100-ndr --nodes dgx001 --sizes 1Q", "expected sizes like"},
      {"--profile a100-hdr --nodes dgx001 --algo nvls", "cannot run nvls: profile a100-hdr has no NVLink SHARP"},
      {"--profile h100-ndr --nodes dgx001 --algo fastest", "expected auto, ring, tree, nvls or nvlstree"},
      {"--profile h100-ndr --nodes dgx001 --collective alltoall", "expected allreduce"},
      {"--profile h100-ndr --nodes dgx001 --routing random", "expected lft, minhop, ftree or adaptive"},
      {"--profile h100-ndr --nodes dgx001 --routing lft", "forwarding tables"},
      {"--profile h100-ndr --nodes dgx001 --lft " + bad, "expected --routing lft"},
      {"--profile h999 --nodes dgx001", "expected a shipped profile"},
      {"--profile " + bad + " --nodes dgx001", bad + ":3: expected `gpu.sm` to be one of 70, 80, 90, 100"},
      {"--nodes dgx001", "expected either --profile"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const auto r = run(base + c.args);
    CHECK(r.code == 2);
    CHECK(r.output.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("simulate: --nodes-dir derives the profile from the nodes' hardware") {
  Scratch s;
  std::filesystem::create_directory(s.path("nodes"));
  // Two DGX H100 descriptions whose NICs are the fabric's HCAs of dgx001 and dgx002
  // (the generator's GUIDs: 0xb83fd20300c00000 + 16 × host + rail).
  for (int host = 0; host < 2; ++host) {
    slurmtopo::NodeInventory n;
    n.hostname = "dgx00" + std::to_string(host + 1);
    n.sockets = 2;
    n.cores_per_socket = 56;
    n.threads_per_core = 2;
    n.numa_nodes = 2;
    n.memory_mib = 2097152;
    for (int g = 0; g < 8; ++g) {
      slurmtopo::Gpu gpu;
      gpu.index = g;
      gpu.vendor = "nvidia";
      gpu.model = "NVIDIA H100 80GB HBM3";
      gpu.slurm_type = "h100";
      gpu.pci_busid = "0000:" + std::to_string(10 + g) + ":00.0";
      gpu.device_file = "/dev/nvidia" + std::to_string(g);
      gpu.numa_node = gpu.socket = g / 4;
      n.gpus.push_back(gpu);
      slurmtopo::RdmaNic nic;
      nic.name = "mlx5_" + std::to_string(g);
      nic.node_guid = 0xb83fd20300c00000ull + 16 * host + g;
      nic.port_guids = {nic.node_guid};
      nic.pci_busid = "0000:" + std::to_string(20 + g) + ":00.0";
      nic.link_layer = "InfiniBand";
      nic.numa_node = nic.socket = g / 4;
      n.nics.push_back(nic);
    }
    for (int g = 0; g < 8; ++g) {
      n.gpu_nic.emplace_back(8, slurmtopo::PathClass::SYS);
      n.gpu_nic[g][g] = slurmtopo::PathClass::PIX;
      n.gpu_gpu.emplace_back(8, slurmtopo::PathClass::SYS);
    }
    s.write("nodes/" + n.hostname + ".json", slurmtopo::node_to_json(n));
  }
  const auto r = run("simulate --fabric " + kSuperpod + " --nodes-dir " + s.path("nodes") + " --nodes 'dgx[001-002]' --sizes 8G");
  CHECK(r.code == 0);
  CHECK(r.output.find("profile h100-ndr (dgx001)") != std::string::npos);
  CHECK(r.output.find("16 channels over 8 rails") != std::string::npos);

  const auto missing = run("simulate --fabric " + kSuperpod + " --nodes-dir " + s.path("nodes") + " --nodes 'dgx[001-003]'");
  CHECK(missing.code == 2);
  CHECK(missing.output.find("dgx003") != std::string::npos);
}

TEST_CASE("simulate: --routing lft walks the switches' forwarding tables from a dump") {
  // OpenSM's min-hop tables for the sample, dumped as dump_fts would: walking them must give
  // exactly what the modelled min-hop routing gives.
  slurmtopo::ClusterInputs inputs;
  inputs.fabric_files = {kFatTree};
  const slurmtopo::Cluster cluster = slurmtopo::load_cluster(inputs);
  std::ostringstream dump;
  slurmtopo::write_forwarding_tables(dump, slurmtopo::compute_minhop_tables(cluster), &cluster);
  Scratch s;
  const std::string tables = s.write("fabric.lft", dump.str());
  const std::string args = "simulate --fabric " + kFatTree + " --profile " + one_nic() +
                           " --nodes cn001,cn009,cn002,cn010,cn003,cn011 --sizes 1M,1G --json";
  const auto lft = run(args + " --routing lft --lft " + tables);
  const auto minhop = run(args + " --routing minhop");
  REQUIRE(lft.code == 0);
  REQUIRE(minhop.code == 0);
  auto a = nlohmann::json::parse(lft.output), b = nlohmann::json::parse(minhop.output);
  CHECK(a["routing"] == "lft");
  CHECK(a["placements"] == b["placements"]);
}

TEST_CASE("simulate: --algo and --collective in any case, as NCCL_ALGO takes them") {
  const std::string base = "simulate --fabric " + kSuperpod + " --profile h100-ndr --nodes 'dgx[001-004]' --sizes 1G";
  const auto lower = run(base + " --algo ring --collective allreduce");
  const auto mixed = run(base + " --algo Ring --collective AllReduce");
  CHECK(lower.code == 0);
  CHECK(mixed.code == 0);
  CHECK(mixed.output == lower.output);
  CHECK(run(base + " --algo rign").code == 2);
}

TEST_CASE("simulate: --busy-jobs costs the placement next to running jobs, static and adaptive routing") {
  Scratch s;
  // dgx002-004 and dgx034-036 run a 1 GiB allreduce between SU1 and SU2; the placement
  // dgx001,dgx033 crosses the same rail spines.
  const std::string busy = s.write("busy.txt", "# running now\ndgx[002-004],dgx[034-036] allreduce 1G\n");
  const std::string base = "simulate --fabric " + kSuperpod + " --profile h100-ndr --nodes dgx001,dgx033 --sizes 1G";
  const auto minhop = run(base + " --routing minhop --busy-jobs " + busy + " --json");
  REQUIRE(minhop.code == 0);
  const auto j = nlohmann::json::parse(minhop.output);
  const auto& placement = j["placements"][0];
  CHECK(placement["busy_jobs"] == 1);
  const auto& size = placement["sizes"][0];
  // D-mod-K puts the neighbour's flows on the placement's uplinks: slower than alone.
  CHECK(size["busbw_gbs"].get<double>() < 0.9 * size["alone_busbw_gbs"].get<double>());
  // Adaptive routing spreads them: nothing lost.
  const auto adaptive = run(base + " --routing adaptive --busy-jobs " + busy);
  REQUIRE(adaptive.code == 0);
  CHECK(adaptive.output.find("with 1 job running next door") != std::string::npos);
  CHECK(adaptive.output.find("busbw alone") != std::string::npos);

  const std::string bad = s.write("bad.txt", "dgx002 allreduce\n");
  const auto r = run(base + " --busy-jobs " + bad);
  CHECK(r.code == 2);
  CHECK(r.output.find("bad.txt:1") != std::string::npos);
  const std::string overlap = s.write("overlap.txt", "\ndgx001,dgx002 allreduce 1G\n");
  const auto o = run(base + " --busy-jobs " + overlap);
  CHECK(o.code == 2);
  CHECK(o.output.find("overlap.txt:2") != std::string::npos);
}

TEST_CASE("simulate --nvlink-domains: NVL72 racks from generate, a job in one rack against the same across two") {
  Scratch s;
  const auto gen = run("generate railopt --scalable-units 4 --hosts-per-su 18 --rails 4 --nvlink-domain-nodes 18 "
                      "--write-nvlink-domains " + s.path("nvl72.domains") + " -o " + s.path("nvl72.topo"));
  REQUIRE(gen.code == 0);
  const std::string base = "simulate --fabric " + s.path("nvl72.topo") + " --profile gb200-nvl72 --sizes 8G --routing adaptive ";
  const auto rack = run(base + "--nvlink-domains " + s.path("nvl72.domains") + " --nodes 'dgx[001-016]'");
  REQUIRE(rack.code == 0);
  CHECK(rack.output.find("16 nodes x 4 GPUs = 64 ranks") != std::string::npos);
  CHECK(rack.output.find("NVLink domains: 1 (NCCL's nodes, MNNVL), up to 64 GPUs each over NVLink") != std::string::npos);
  CHECK(rack.output.find("nvls/Simple") != std::string::npos);
  CHECK(rack.output.find("warning") == std::string::npos);
  const auto two = run(base + "--nvlink-domains " + s.path("nvl72.domains") + " --nodes 'dgx[001-008,019-026]' --json");
  REQUIRE(two.code == 0);
  const nlohmann::json j = nlohmann::json::parse(two.output);
  const nlohmann::json& p = j["placements"][0];
  CHECK(p["nvlink_domains"]["count"] == 2);
  CHECK(p["nvlink_domains"]["gpus_each"] == 32);
  CHECK(p["sizes"][0]["algorithm"] == "nvlstree");
  // Without the domains each tray is NCCL's node, and the output says so.
  const auto blind = run(base + "--nodes 'dgx[001-016]'");
  REQUIRE(blind.code == 0);
  CHECK(blind.output.find("warning: profile gb200-nvl72 joins 18 nodes in an NVLink domain, but no --nvlink-domains") !=
        std::string::npos);
  // A domains file that does not exist is an input error, nothing printed.
  const auto bad = run(base + "--nvlink-domains " + s.path("absent") + " --nodes dgx001");
  CHECK(bad.code == 2);
}
