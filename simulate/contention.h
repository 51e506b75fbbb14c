// What the fabric gives each collective algorithm on one placement: the flows the algorithm
// puts on NVLink/NVSwitch, PCIe, NICs and every cable direction, shared max-min fairly
// (simulate/flow_sharing.h). A channel runs at its slowest flow (NCCL splits the data evenly
// over channels and pipelines it through every hop), so the slowest flow sets the
// algorithm's bandwidth; the resources that froze it are its bottlenecks.
//
// The flows, per algorithm (channel c uses rail c mod K, entering and leaving every node
// through that rail's NIC, as NCCL's rings and trees do on rail-optimized nodes):
//   ring      inside a node, the channel's G−1 NVLink hops from the rail's GPU onward
//             (all G hops, closing the ring, on one node); between nodes, one flow per
//             node to the next in rank order (= hostlist order), NIC to NIC over the
//             routed path. Broadcast leaves out the hop back to the root.
//   tree      inside a node a chain through the G GPUs, both directions; between nodes
//             NCCL's double binary tree over the nodes (channels alternate trees), an up
//             and a down flow on every tree edge.
//   nvls      per GPU one flow through its NVLink port into the NVSwitch and back, carrying
//             (1 + 1/G)·S each way for allreduce (reduce-scatter by load-reduce, all-gather
//             by multicast store): NVSwitch does the reduction.
//   nvlstree  nvls inside the node, the tree's flows between nodes.
// Nodes are alike, so the flows inside a node are solved once on the first node; flows
// between nodes are solved over the whole placement.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "graph/cluster.h"
#include "simulate/collective.h"
#include "simulate/fabric_resources.h"
#include "simulate/hardware_profile.h"
#include "simulate/routing.h"

namespace slurmtopo {

// What predictions on one cluster share, read-only and safe to use from several threads:
// the routing and the cable-direction resources.
class FabricModel {
 public:
  FabricModel(const Cluster& cluster, RoutingKind kind);
  FabricModel(const Cluster& cluster, std::unique_ptr<Routing> routing);

  const Cluster& cluster() const { return *cluster_; }
  const Routing& routing() const { return *routing_; }
  const FabricResources& cables() const { return cables_; }
  // cables().resources[i].capacity, packed: a placement touches cables all over a large
  // fabric, and this is what each first touch has to read.
  double capacity(int cable) const { return capacity_[cable]; }

 private:
  const Cluster* cluster_;
  std::unique_ptr<Routing> routing_;
  FabricResources cables_;
  std::vector<float> capacity_;
};

// A placement resolved against the cluster: the hosts in rank order and, per host and rail,
// the HCA that rail's channels use.
struct Placement {
  std::vector<int> hosts;               // Cluster::hosts indices, rank order
  std::vector<std::vector<int>> rails;  // [node][rail] → Cluster::hcas index
  std::vector<int> home_gpu;            // per rail: the GPU next to its NIC (where rings enter)
  std::vector<std::string> warnings;    // e.g. a host with fewer HCAs than the profile's NICs
};

// Per host name, the HCA (Cluster::hcas index, −1 for none) each GPU sends through, as the
// node's PCIe layout says (graph/node_join.h). Hosts not listed use their HCAs in rail order.
struct GpuNics {
  std::vector<std::string> hosts;
  std::vector<std::vector<int>> gpu_hca;  // parallel to hosts
};

// Throws InputError("--nodes", …) for a host the cluster does not have, a host named twice,
// or a host without HCAs when there are several nodes.
Placement resolve_placement(const Cluster& cluster, const std::vector<std::string>& hosts,
                            const HardwareProfile& profile, const GpuNics* gpu_nics = nullptr);

struct Bottleneck {
  std::string resource;         // "leaf001[33]->spine02[1]", "dgx001 mlx5_0 NIC tx", …
  double capacity_gbs = 0;
  double load_gbs = 0;          // carried, after sharing
  double offered_gbs = 0;       // what its flows would carry at the rate NCCL expects (ideal cables)
  double oversubscription = 0;  // offered / capacity
  double flows = 0;             // channel flows crossing it
};

// One algorithm on one placement.
struct AlgorithmBandwidth {
  bool modelled = false;     // the hardware has the algorithm (NVLS needs NVSwitch, …)
  double raw_bw = 0;         // on the fabric, in nccl_algorithm_bw's terms (collective.h)
  double free_raw_bw = 0;    // the same with every cable ideal: what NCCL assumes
  std::vector<Bottleneck> bottlenecks;  // what holds the slowest channel: the worst 10
  int bottleneck_count = 0;             // how many resources hold it in all
};

struct Contention {
  std::array<AlgorithmBandwidth, kAlgorithms> by_algorithm;  // indexed by Algorithm
  int flows = 0;             // flows solved (after merging identical ones)
};

// Throws InputError when two HCAs of the placement cannot reach each other.
Contention simulate_contention(const FabricModel& fabric, const Placement& placement,
                               const HardwareProfile& profile, Collective collective);

}  // namespace slurmtopo
