// What a new topology.conf changes against the one in place, in an admin's terms:
// nodes that move between leaves, appear or disappear, and switches added or removed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "slurm/topology_conf.h"
#include "slurm/topology_file.h"

namespace slurmtopo {

struct TopologyDiff {
  std::vector<std::string> lines;  // human-readable, stable order
  size_t old_nodes = 0;
  std::vector<std::string> dropped;  // nodes in the old file, not in the new one
  bool empty() const { return lines.empty(); }
};

TopologyDiff diff_topology(const ParsedTopology& old_file, const ParsedTopology& new_file);

// Any topology file as leaves and their nodes, so that tree, block and yaml files diff alike:
// a block is a leaf; a yaml file is its cluster_default topology; flat has no leaves. Throws
// InputError(path, line, ...) for a file slurmctld would refuse.
ParsedTopology comparable_topology(const SlurmTopologyFile& file, const std::string& path);
ParsedTopology comparable_topology(std::string_view text, const std::string& path);

}  // namespace slurmtopo
