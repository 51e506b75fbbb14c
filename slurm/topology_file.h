// A topology file as slurmctld would take it, whichever plugin it is for, recognised by its
// content: SwitchName= lines (topology/tree) or BlockName=/BlockSizes= lines (topology/block).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "slurm/block_topology.h"
#include "slurm/topology_conf.h"

namespace slurmtopo {

struct SlurmTopologyFile {
  std::optional<ParsedTopology> tree;  // exactly one of the two is set
  std::optional<BlockTopology> block;
};

// Throws InputError(file, line, ...) where a block file breaks slurmctld's rules; a tree file's
// problems are in tree->errors, as parse_topology_conf reports them.
SlurmTopologyFile parse_topology_file(std::string_view text, const std::string& file);

}  // namespace slurmtopo
