// topology/block's file (23.11+): BlockName= lines with their nodes, in file order (line
// order is physical adjacency: aggregated blocks are consecutive lines), and BlockSizes=.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

struct BlockLine {
  int line = 0;
  std::string name;
  std::vector<std::string> nodes;
};
struct BlockTopology {
  std::string file;
  std::vector<BlockLine> blocks;
  std::vector<int> block_sizes;  // empty: the first block's node count, aggregated up to 16 blocks
  int block_sizes_line = 0;
};

// True when the file describes topology/block (BlockName= lines) rather than topology/tree.
bool is_block_topology(std::string_view text);
// Throws InputError(file, line, ...) for what slurmctld would refuse to load.
BlockTopology parse_block_topology(std::string_view text, const std::string& file);
// A BlockSizes= value, "18,36,72": node counts above 0 of at most 9 digits (beyond, no block
// size means anything, nor fits slurmctld's int); nullopt for anything else. Whether they form
// valid levels is emit/block_check.h's question.
std::optional<std::vector<int>> block_sizes_of(std::string_view value);

}  // namespace slurmtopo
