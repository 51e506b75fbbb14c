// What a new topology.conf changes against the one in place, in an admin's terms:
// nodes that move between leaves, appear or disappear, and switches added or removed.
#pragma once

#include <string>
#include <vector>

#include "slurm/topology_conf.h"

namespace slurmtopo {

struct TopologyDiff {
  std::vector<std::string> lines;  // human-readable, stable order
  size_t old_nodes = 0;
  std::vector<std::string> dropped;  // nodes in the old file, not in the new one
  bool empty() const { return lines.empty(); }
};

TopologyDiff diff_topology(const ParsedTopology& old_file, const ParsedTopology& new_file);

}  // namespace slurmtopo
