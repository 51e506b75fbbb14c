// The checks slurmctld's topology/block applies to a block topology (topology.conf BlockName=
// lines or a topology.yaml block entry), run before anything is written, and stricter where
// slurmctld is silent (slurm.md: a node listed in two blocks is dropped from one without a
// word). Errors as TopologyCheck's, so the tree and block checks report alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emit/topology_check.h"
#include "slurm/block_topology.h"
#include "slurm/release.h"

namespace slurmtopo {

struct BlockCheckOptions {
  SlurmRelease release;
  // Slurm's node names (slurm.conf), sorted by natural_less; nullopt when unknown.
  std::optional<std::vector<std::string>> slurm_nodes;
};

// Errors: no blocks; a block name that is empty, repeated, longer than 64 characters or not
// letters, digits and -_.; a block without nodes; a node in two blocks; BlockSizes that are
// not the first of them times powers of two up to 2^15, in any order ("Invalid BlockSizes
// value", as slurmctld 24.05-26.05 says it); before 25.05 a
// block with fewer nodes than the base size; before 24.05 BlockSizes at all, or (23.11)
// blocks of different sizes. Warnings: nodes Slurm does not know; Slurm nodes in no block.
TopologyCheck check_blocks(const BlockTopology& blocks, const BlockCheckOptions& options);

}  // namespace slurmtopo
