// What the fabric gives each collective algorithm on one placement: the flows the algorithm
// puts on NVLink/NVSwitch, PCIe, NICs and every cable direction, shared max-min fairly
// (simulate/network/flow_sharing.h). A channel runs at its slowest flow (NCCL splits the data evenly
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
// between nodes are solved over the whole placement, with the jobs next door's flows on the
// same cables when there are any (simulate/collective/network_stage.h).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "graph/cluster.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/nccl_model.h"
#include "simulate/collective/placement.h"
#include "simulate/network/fabric_model.h"

namespace slurmtopo {

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

// A job running next door on the same hardware: its flows (of the algorithm it runs) share
// the cables with the placement's.
struct NeighbourJob {
  Placement placement;
  Algorithm algorithm = Algorithm::Ring;
  Collective collective = Collective::AllReduce;
};

// Throws InputError when two HCAs of the placement (or of a neighbour) cannot reach each other.
Contention simulate_contention(const FabricModel& fabric, const Placement& placement,
                               const HardwareProfile& profile, Collective collective,
                               const std::vector<NeighbourJob>& neighbours = {});

}  // namespace slurmtopo
