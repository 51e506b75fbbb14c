// From a cluster model to a checked topology.conf (emit/topology_emit.h writes it, behind the
// guard against silently losing nodes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emit/topology_check.h"
#include "emit/topology_diff.h"
#include "graph/cluster.h"
#include "graph/slurm_tree.h"

namespace slurmtopo {

struct TopologyRequest {
  std::optional<std::vector<std::string>> slurm_nodes;  // --nodes / --slurm-conf
  std::string command;                                  // for the header comment
};

struct TopologyPlan {
  SlurmTree tree;
  std::string text;
  TopologyCheck check;                          // run on `text`, parsed back
  std::vector<std::string> in_slurm_not_fabric;  // Slurm nodes the fabric does not show
  std::vector<std::string> in_fabric_not_slurm;  // fabric hosts Slurm does not know
  std::vector<std::string> storage_left_out;     // storage hosts, without a Slurm node list
};

TopologyPlan plan_topology(const Cluster& cluster, const TopologyRequest& request);

}  // namespace slurmtopo
