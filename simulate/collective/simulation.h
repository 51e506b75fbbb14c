// `slurmtopo simulate` as one call: the cluster, the hardware (a profile, or the node exports
// with the NIC speed the fabric shows), the routing (forwarding tables from a dump or the
// snapshot, or modelled) and one or two placements predicted on the same FabricModel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graph/cluster_inputs.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/prediction.h"

namespace slurmtopo {

struct SimulationRequest {
  ClusterInputs inputs;
  std::string profile;                // a shipped name or a YAML file; or else
  std::string nodes_dir;              // node exports: the profile follows the hardware
  std::string lft;                    // dump_fts/ibroute text for RoutingKind::Lft
  std::vector<std::string> hosts;     // the placement, rank order
  std::vector<std::string> compare;   // a second placement, or none
  std::string busy_jobs;              // --busy-jobs FILE: jobs running next door, or none
  std::string nvlink_domains;         // --nvlink-domains: a domains file or a .fabric.csv directory, or none
  SimulateOptions options;
};

struct SimulationResult {
  HardwareProfile profile;
  Prediction placement;
  std::optional<Prediction> compared;
};

// Throws InputError: neither or both of profile and nodes_dir, --lft without Lft routing,
// hosts the cluster lacks, node exports that do not describe the hosts.
SimulationResult run_simulation(const SimulationRequest& request);

}  // namespace slurmtopo
