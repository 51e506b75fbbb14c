// Writes the Slurm tree as topology.conf text: one switch per line, leaves first, compressed
// hostlists, a comment header with the source and counts (no timestamp: same input, same bytes).
#pragma once

#include <string>
#include <vector>

#include "graph/slurm_tree.h"

namespace slurmtopo {

struct TopologyHeader {
  std::vector<std::string> sources;  // one line each: where the fabric came from, and its size
  std::string command;               // how to regenerate the file
  std::string release;               // "Slurm 22.05 (scontrol --version: ...)"; "" → no line
};

std::string render_topology_conf(const SlurmTree& tree, const TopologyHeader& header);

}  // namespace slurmtopo
