// Blocks for topology/block: from NVLink domains (azslurm's expected output as the oracle, and
// a generated NVL72-style cluster with two faulty nodes), from leaf groups, and BlockSizes.
#include "emit/block_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "base/files.h"
#include "base/input_error.h"
#include "slurm/block_topology.h"
#include "slurm/hostlist.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {
const std::string kAzure = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/azure_cyclecloud/";

bool have(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  slurmtopo::testing::skip(path + " is absent (../shared is beside the repository in CI)");
  return false;
}

std::string uuid(int rack) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "7a1c0de0-0000-4000-8000-%012d", rack);
  return buf;
}

// 8 racks × 18 nodes × 4 GPUs, NVL72-style: every GPU of rack r reports ClusterUUID uuid(r),
// CliqueId 32766 — except nvl-r2-n05, whose GPUs report rack 9's UUID (a mis-set fabric
// manager), and nvl-r5-n00, whose GPUs report none (fabric not up).
NvlinkDomains nvl72() {
  NvlinkDomains d;
  d.source = "generated";
  for (int r = 0; r < 8; ++r)
    for (int n = 0; n < 18; ++n) {
      HostFabric h;
      char name[32];
      std::snprintf(name, sizeof name, "nvl-r%d-n%02d", r, n);
      h.host = name;
      h.file = std::string(name) + ".fabric.csv";
      for (int g = 0; g < 4; ++g) {
        GpuFabric f{uuid(r), "32766"};
        if (r == 2 && n == 5) f.cluster_uuid = uuid(9);
        if (r == 5 && n == 0) f = {};
        h.gpus.push_back(f);
      }
      d.hosts.push_back(h);
    }
  return d;
}
}  // namespace

TEST_CASE("blocks from NVLink domains: azslurm's GB200 output, block for block") {
  if (!have(kAzure + "nodes_clusterUUIDs.txt")) return;
  const BlockPlan plan = plan_blocks_from_domains(load_nvlink_domains(kAzure + "nodes_clusterUUIDs.txt"), std::nullopt, {24, 11});
  const BlockTopology expected = parse_block_topology(read_file(kAzure + "block_topology.txt"), "block_topology.txt");
  REQUIRE(plan.blocks.blocks.size() == expected.blocks.size());
  for (size_t i = 0; i < expected.blocks.size(); ++i) {
    CHECK(plan.blocks.blocks[i].name == expected.blocks[i].name);
    std::vector<std::string> want = expected.blocks[i].nodes;
    std::sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
    CHECK(plan.blocks.blocks[i].nodes == want);
  }
  CHECK(plan.anomalies.empty());
  // Four full racks of 18 trays: no domain is short, nothing to say.
  CHECK(plan.findings.empty());
  // azslurm writes BlockSizes=1; topology/block's rules give the 18-node base block and its
  // aggregations of 2 and 4 consecutive blocks.
  CHECK(plan.blocks.block_sizes == std::vector<int>{18, 36, 72});
}

TEST_CASE("blocks from NVLink domains: NVL72 racks, one node with another ClusterUUID, one with none") {
  const BlockPlan plan = plan_blocks_from_domains(nvl72(), std::nullopt, {24, 11});
  REQUIRE(plan.blocks.blocks.size() == 8);
  for (int r = 0; r < 8; ++r) {
    CHECK(plan.blocks.blocks[r].name == "block_" + uuid(r) + ".32766");
    CHECK(plan.blocks.blocks[r].nodes.size() == (r == 2 || r == 5 ? 17u : 18u));
  }
  CHECK(std::find(plan.blocks.blocks[2].nodes.begin(), plan.blocks.blocks[2].nodes.end(), "nvl-r2-n05") ==
        plan.blocks.blocks[2].nodes.end());
  REQUIRE(plan.anomalies.size() == 2);
  CHECK(plan.anomalies[0] == "nvl-r5-n00: its GPUs report no NVLink domain (nvl-r5-n00.fabric.csv); in no block");
  CHECK(plan.anomalies[1].rfind("nvl-r2-n05: alone in NVLink domain " + uuid(9) + ".32766", 0) == 0);
  // The same as findings, and racks 2 and 5 each a node short of the others' 18.
  REQUIRE(plan.findings.size() == 4);
  CHECK(plan.findings[0].kind == DomainFindingKind::Unknown);
  CHECK(plan.findings[0].subject == "nvl-r5-n00");
  CHECK(plan.findings[1].kind == DomainFindingKind::Short);
  CHECK(plan.findings[1].subject == "block_" + uuid(2) + ".32766");
  CHECK(plan.findings[1].detail.find("holds 17 nodes (nvl-r2-n[00-04,06-17]) where the largest holds 18: 1 node is "
                                     "down, drained or on another ClusterUUID") != std::string::npos);
  // Rack 9's domain first appears with nvl-r2-n05, before rack 3.
  CHECK(plan.findings[2].kind == DomainFindingKind::Alone);
  CHECK(plan.findings[2].subject == "nvl-r2-n05");
  CHECK(plan.findings[3].kind == DomainFindingKind::Short);
  CHECK(plan.findings[3].subject == "block_" + uuid(5) + ".32766");
  for (const DomainFinding& f : plan.findings) CHECK(domain_kind(f.kind).severity == Severity::Warn);
  // Before 25.05 every block needs the base size: the 17-node blocks set it.
  CHECK(plan.blocks.block_sizes == std::vector<int>{17, 34, 68, 136});
  // 25.05 permits gaps: the 18-node racks set it.
  CHECK(plan_blocks_from_domains(nvl72(), std::nullopt, {25, 5}).blocks.block_sizes == std::vector<int>{18, 36, 72, 144});
}

TEST_CASE("blocks from NVLink domains: GPUs of one node that disagree are an anomaly, not a block member") {
  NvlinkDomains d = nvl72();
  d.hosts[0].gpus[3].cluster_uuid = uuid(7);
  const BlockPlan plan = plan_blocks_from_domains(d, std::nullopt, {24, 11});
  REQUIRE(plan.anomalies.size() == 3);
  CHECK(plan.anomalies[0] == "nvl-r0-n00: its GPUs disagree on the NVLink domain (GPUs 0-2 → " + uuid(0) + ".32766, GPU 3 → " +
                                 uuid(7) + ".32766, nvl-r0-n00.fabric.csv); in no block");
  CHECK(plan.blocks.blocks[0].nodes.size() == 17);
}

TEST_CASE("blocks from NVLink domains: a host that is no node is bad input — a node with no domain an anomaly") {
  NvlinkDomains d = parse_nvlink_domains("n1: 5e797fc6-0f46-421a-8724-0e102c0f723c\nzz9: 5e797fc6-0f46-421a-8724-0e102c0f723c\n", "d.txt");
  try {
    plan_blocks_from_domains(d, std::vector<std::string>{"n1", "n2"}, {24, 11});
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "d.txt:2: host zz9 is not a node of the cluster (neither in the fabric nor in --nodes/--slurm-conf)");
  }
  d.hosts.pop_back();
  const BlockPlan plan = plan_blocks_from_domains(d, std::vector<std::string>{"n1", "n2"}, {24, 11});
  REQUIRE(plan.anomalies.size() == 1);
  CHECK(plan.anomalies[0] == "n2: not in d.txt (NVLink domain unknown); in no block");
  REQUIRE(plan.findings.size() == 1);
  CHECK(plan.findings[0].kind == DomainFindingKind::Unknown);
  CHECK(plan.findings[0].subject == "n2");
}

TEST_CASE("blocks from NVLink domains: a rack with two trays drained is short, the rest quiet") {
  NvlinkDomains d;
  d.source = "generated";
  for (const HostFabric& h : nvl72().hosts)
    if (h.host.rfind("nvl-r0-", 0) == 0 || h.host.rfind("nvl-r1-", 0) == 0 || h.host.rfind("nvl-r3-", 0) == 0)
      if (h.host != "nvl-r3-n16" && h.host != "nvl-r3-n17") d.hosts.push_back(h);
  const BlockPlan plan = plan_blocks_from_domains(d, std::nullopt, {25, 5});
  REQUIRE(plan.findings.size() == 1);
  CHECK(plan.findings[0].kind == DomainFindingKind::Short);
  CHECK(plan.findings[0].subject == "block_" + uuid(3) + ".32766");
  CHECK(plan.findings[0].detail.find("2 nodes are down, drained or on another ClusterUUID; a job of 18 nodes on one "
                                     "NVLink domain does not fit in it") != std::string::npos);
  CHECK(plan.blocks.blocks[2].nodes.size() == 16);  // still a block, as it is
}

TEST_CASE("BlockSizes: base block then power-of-two aggregation up to all blocks, per release") {
  std::vector<std::string> why;
  CHECK(choose_block_sizes({16, 16, 16}, {24, 11}, why) == std::vector<int>{16, 32});
  CHECK(why.size() == 2);
  why.clear();
  CHECK(choose_block_sizes({8, 6, 8, 8, 8}, {24, 5}, why) == std::vector<int>{6, 12, 24});
  CHECK(why[0].find("smallest block") != std::string::npos);
  why.clear();
  CHECK(choose_block_sizes({8, 6, 8, 8, 8}, {25, 11}, why) == std::vector<int>{8, 16, 32});
  CHECK(why[0].find("most common") != std::string::npos);
  why.clear();
  CHECK(choose_block_sizes({4, 4}, {23, 11}, why).empty());
  CHECK(why[0].find("24.05 added it") != std::string::npos);
}
