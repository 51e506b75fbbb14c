// The hardware a prediction runs on, made from node descriptions rather than a named profile:
// `slurmtopo simulate --nodes-dir` and the report's performance section both predict from it,
// so both take the same node's profile, the same NIC speed and the same GPU → HCA layout.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "discover/node_set.h"
#include "graph/cluster.h"
#include "graph/node_join.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/placement.h"

namespace slurmtopo {

struct NodeProfile {
  HardwareProfile profile;  // the first node class's representative's hardware
  GpuNics gpu_nics;         // every joined host: which HCA each GPU's channels use
  std::vector<std::string> warnings;  // the hosts differ in hardware
};

// hwloc does not know a NIC's speed: the cable of the host's first HCA in `cluster` says it
// (Unknown for a host not on the fabric). Throws InputError from profile_for_node when no
// shipped profile fits the GPU. `set` has at least one node; `join` joined it to `cluster`.
NodeProfile profile_from_nodes(const NodeSet& set, const NodeJoin& join, const Cluster& cluster);

// The same where the nodes are optional evidence (the report, the measured runs): the profile's
// InputError becomes a warning, `prefix` + its message, and nullopt; its own warnings are
// appended to `warnings` too.
std::optional<NodeProfile> profile_from_nodes_or_warn(const NodeSet& set, const NodeJoin& join, const Cluster& cluster,
                                                      std::vector<std::string>& warnings, const std::string& prefix);

}  // namespace slurmtopo
