// Where a collective runs: the hosts in rank order resolved against the cluster, and which
// HCA each rail's channels leave and enter every node through.
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"
#include "graph/node_health.h"
#include "simulate/collective/hardware_profile.h"

namespace slurmtopo {

// A placement resolved against the cluster: the hosts in rank order and, per host and rail,
// the HCA that rail's channels use.
struct Placement {
  std::vector<int> hosts;               // Cluster::hosts indices, rank order
  std::vector<std::vector<int>> rails;  // [node][rail] → Cluster::hcas index
  // [node][rail]: the PCIe share that rail keeps (the least of the GPUs sending through its
  // HCA); empty when no node data limits any.
  std::vector<std::vector<PcieShare>> limits;
  std::vector<int> home_gpu;            // per rail: the GPU next to its NIC (where rings enter)
  // Per GPU of the first node, its name in bottlenecks ("gb200-r01-02 GPU3") where a node of
  // the model is several hosts (an NVLink domain); empty: the first host's "GPUn".
  std::vector<std::string> gpu_names;
  std::vector<std::string> warnings;    // e.g. a host with fewer HCAs than the profile's NICs
};

// Per host name, the HCA (Cluster::hcas index, −1 for none) each GPU sends through, as the
// node's PCIe layout says (graph/node_join.h). Hosts not listed use their HCAs in rail order.
struct GpuNics {
  std::vector<std::string> hosts;
  std::vector<std::vector<int>> gpu_hca;  // parallel to hosts
  // Parallel to gpu_hca where given: what the node probe leaves of each GPU's PCIe path to its
  // NIC (graph/node_health.h gpu_pcie_shares).
  std::vector<std::vector<PcieShare>> gpu_limit;
};

// Throws InputError("--nodes", …) for a host the cluster does not have, a host named twice,
// or a host without HCAs when there are several nodes.
Placement resolve_placement(const Cluster& cluster, const std::vector<std::string>& hosts,
                            const HardwareProfile& profile, const GpuNics* gpu_nics = nullptr);

}  // namespace slurmtopo
