// Writes a block plan as topology.conf for topology/block: a comment header (the command,
// the release and how it was chosen, what the blocks are, how BlockSizes was chosen, the
// anomalies left out), then one BlockName= line per block in plan order — line order is
// physical adjacency, which aggregation follows — then BlockSizes=.
#pragma once

#include <string>
#include <vector>

#include "emit/block_plan.h"

namespace slurmtopo {

struct BlockHeader {
  std::string command;             // how to regenerate the file
  std::string release;             // "Slurm 24.11 (--slurm-version 24.11)"
  std::vector<std::string> sources;  // the fabric files, if any
};

// The header comment lines shared with topology.yaml (without "# ").
std::vector<std::string> block_header_lines(const BlockPlan& plan);

std::string render_block_conf(const BlockPlan& plan, const BlockHeader& header);

}  // namespace slurmtopo
