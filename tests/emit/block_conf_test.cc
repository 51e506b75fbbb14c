// A block plan as topology.conf: what the header says, and that slurmctld's reader reads the
// lines back as the plan.
#include "emit/block_conf.h"

#include <doctest/doctest.h>

#include "slurm/block_topology.h"

using namespace slurmtopo;

TEST_CASE("block topology.conf: header explains the blocks and BlockSizes — lines read back as planned") {
  const NvlinkDomains d = parse_nvlink_domains(
      "n1: 5e797fc6-0f46-421a-8724-0e102c0f723c\nn2: 5e797fc6-0f46-421a-8724-0e102c0f723c\n"
      "n3: 5e797fc6-0f46-421a-8724-0e102c0f7240\nn4: 5e797fc6-0f46-421a-8724-0e102c0f7240\nn5: N/A\n",
      "domains.txt");
  const BlockPlan plan = plan_blocks_from_domains(d, std::nullopt, {24, 11});
  const std::string text = render_block_conf(plan, {"slurmtopo emit topology --plugin block", "Slurm 24.11 (--slurm-version 24.11)", {}});
  CHECK(text.find("# for Slurm 24.11 (--slurm-version 24.11)\n") != std::string::npos);
  CHECK(text.find("# blocks: NVLink domains (fabric ClusterUUID[.CliqueId]) from domains.txt\n") != std::string::npos);
  CHECK(text.find("# BlockSizes: base block size 2: the smallest block") != std::string::npos);
  CHECK(text.find("# anomaly: n5: its GPUs report no NVLink domain (domains.txt:5); in no block\n") != std::string::npos);
  CHECK(text.find("\nBlockName=block_5e797fc6-0f46-421a-8724-0e102c0f723c Nodes=n[1-2]\n") != std::string::npos);
  CHECK(text.substr(text.size() - 15) == "BlockSizes=2,4\n");
  const BlockTopology back = parse_block_topology(text, "topology.conf");
  REQUIRE(back.blocks.size() == 2);
  CHECK(back.blocks[1].nodes == plan.blocks.blocks[1].nodes);
  CHECK(back.block_sizes == plan.blocks.block_sizes);
  CHECK(render_block_conf(plan, {"x", "y", {}}) == render_block_conf(plan, {"x", "y", {}}));
}
