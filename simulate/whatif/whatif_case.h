// One configuration a what-if looks at: the cluster (its fabric, routes and cable capacities),
// the topology.conf slurmtopo emits for it (the leaves and groups every placement is measured
// against), what Slurm places with (that topology, or another file, and no topology at all),
// and the nodes that are down. "Before" and "after" an edit are two of these.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/cluster.h"
#include "simulate/collective/contention.h"
#include "simulate/network/routing.h"
#include "simulate/scheduler/leaf_tree.h"
#include "simulate/scheduler/slurm_select.h"
#include "slurm/topology_conf.h"

namespace slurmtopo {

// What slurm.conf says, the same before and after an edit.
struct WhatifSlurm {
  std::vector<SlurmNode> nodes;  // the partition
  TopologyParams params;
  SlurmRelease release;  // its node selection rules (selection_rules) and node table order
};

struct WhatifCase {
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<FabricModel> fabric;
  ParsedTopology emitted;                     // topology.conf as `emit topology` writes it
  std::string placed_with;                    // "emitted topology.conf" or the file Slurm uses
  std::unique_ptr<SlurmSelect> slurm;         // with that topology
  std::unique_ptr<SlurmSelect> no_topology;   // the same nodes, no topology plugin
  LeafTree leaves;                            // the emitted tree over slurm->node_names()
  std::vector<char> down;                     // drained, or without a cable left
  std::vector<std::string> notes;

  const std::vector<std::string>& node_names() const { return slurm->node_names(); }
  std::vector<std::string> names_of(const std::vector<int>& nodes) const;
};

struct WhatifCaseSpec {
  std::vector<std::string> drained;   // hosts
  std::string topology_file;          // "" = the emitted topology.conf
  bool lost_hosts_are_down = false;   // after an edit: hosts the fabric lost are down, not an error
  RoutingKind routing = RoutingKind::MinHop;
};

// Throws InputError for partition nodes the fabric does not have (unless lost hosts are down),
// a drained node outside the partition, or a topology file Slurm would refuse.
WhatifCase make_whatif_case(Cluster cluster, const WhatifSlurm& slurm, const WhatifCaseSpec& spec);

}  // namespace slurmtopo
