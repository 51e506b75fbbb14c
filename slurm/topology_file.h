// A topology file as slurmctld would take it, whichever plugin it is for, recognised by its
// content: SwitchName= lines (topology/tree), BlockName=/BlockSizes= lines (topology/block),
// or topology.yaml (25.05+), of which the cluster_default topology is taken — what a job gets
// that names no partition with another Topology=.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "slurm/block_topology.h"
#include "slurm/topology_conf.h"

namespace slurmtopo {

struct SlurmTopologyFile {
  std::optional<ParsedTopology> tree;  // at most one of the two is set; neither: flat
  std::optional<BlockTopology> block;
  std::string topology;                // topology.yaml: the name of the topology taken
};

// Throws InputError(file, line, ...) where a block file or topology.yaml breaks slurmctld's
// rules (or a topology.yaml has no cluster_default among several); a tree file's problems are
// in tree->errors, as parse_topology_conf reports them.
SlurmTopologyFile parse_topology_file(std::string_view text, const std::string& file);

}  // namespace slurmtopo
