// topology/block's checks, run before a block file is written.
#include "emit/block_check.h"

#include <doctest/doctest.h>

#include "slurm/block_topology.h"

using namespace slurmtopo;

namespace {
TopologyCheck check(const char* text, SlurmRelease r = {24, 11}, std::optional<std::vector<std::string>> nodes = {}) {
  return check_blocks(parse_block_topology(text, "topology.conf"), {r, nodes});
}
bool mentions(const std::vector<TopologyIssue>& issues, const std::string& what) {
  for (const auto& i : issues)
    if (i.message.find(what) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("block check: a proper block file passes") {
  const TopologyCheck c = check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,8\n", {24, 11},
                                std::vector<std::string>{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"});
  CHECK(c.ok());
  CHECK(c.warnings.empty());
}

TEST_CASE("block check: what slurmctld refuses, and what it would silently get wrong") {
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b1 Nodes=n[5-8]\n").errors, "already been defined"));
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[4-7]\n").errors,
                 "node n4 is in blocks b1 and b2 (slurmctld would silently keep it in one)"));
  const TopologyCheck sizes = check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,12\n");
  REQUIRE(sizes.errors.size() == 1);
  CHECK(sizes.errors[0].line == 3);
  CHECK(sizes.errors[0].message ==
        "Invalid BlockSizes value: 4,12 (expected 4 times a power of two up to 2^15, as slurmctld reads them)");
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockSizes=4,2\n").errors, "Invalid BlockSizes"));
  // slurmctld sets one level per size: their order does not matter, and 2^15 is the last level.
  CHECK(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,16,8\n").ok());
  CHECK(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,131072\n").ok());
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,262144\n").errors,
                 "Invalid BlockSizes value: 4,262144"));
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-6]\nBlockSizes=4\n").errors,
                 "block b2 has 2 nodes, fewer than the base block size 4 (allowed from 25.05"));
  CHECK(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-6]\nBlockSizes=4\n", {25, 5}).ok());
  std::string longname = "BlockName=" + std::string(65, 'b') + " Nodes=n1\n";
  CHECK(mentions(check(longname.c_str()).errors, "longer than 64"));
  CHECK(mentions(check("BlockName=b/1 Nodes=n1\n").errors, "is not letters"));
  CHECK(mentions(check("# none\n").errors, "no blocks"));
}

TEST_CASE("block check: 23.11 has blocks but no BlockSizes, and blocks of one size") {
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockSizes=4\n", {23, 11}).errors, "BlockSizes= needs Slurm 24.05"));
  CHECK(mentions(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-7]\n", {23, 11}).errors, "needs blocks of one size"));
  CHECK(check("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\n", {23, 11}).ok());
}

TEST_CASE("block check: nodes Slurm does not know, and Slurm nodes in no block, are warnings") {
  const TopologyCheck c = check("BlockName=b1 Nodes=n[1-2],x1\n", {24, 11}, std::vector<std::string>{"n1", "n2", "n3"});
  CHECK(c.ok());
  CHECK(mentions(c.warnings, "not in slurm.conf: x1"));
  CHECK(mentions(c.warnings, "1 Slurm node in no block (topology/block never allocates them): n3"));
}
