// The collective cost model: NCCL's own (src/graph/tuning.cc, as in
// ../shared/reference/collectives.md) — per algorithm and protocol a latency plus size over
// bandwidth — fed with the bandwidth the fabric really gives (simulate/collective/contention.h) instead
// of NCCL's contention-free guess, plus the profile's fitted calibration terms.
//
//   time = launch + NCCL latency + S / algBw'             (NCCL's formula; algBw' on the
//                                                            channels NCCL uses at S)
//        + fill: (depth − 1) chunks through the slowest stage (chunk and depth as NCCL's)
//        + sync: step cost × steps on the critical path + network jitter × network steps
//                × sqrt(2 ln N)                               (the slowest of N nodes)
//
// Every term is a mechanism with NCCL's parameters; only step_us, net_jitter_us and launch are
// fitted (docs/simulator.md says to which published points).
#pragma once

#include <string>
#include <vector>

#include "simulate/collective/hardware_profile.h"

namespace slurmtopo {

enum class Collective { AllReduce, ReduceScatter, AllGather, Broadcast };
const char* to_string(Collective c);
// "allreduce", "reducescatter", "allgather", "broadcast"; throws InputError otherwise.
Collective parse_collective(const std::string& name);
// "ring", "tree", "nvls", "nvlstree"; throws InputError otherwise.
Algorithm parse_algorithm(const std::string& name);

// Who takes part: ranks = nodes × gpus_per_node, in Slurm's task order (block distribution).
struct Layout {
  int nodes = 1;
  int gpus_per_node = 1;
  int channels = 1;  // NCCL channels; with several nodes a multiple of the rails
  int rails = 1;     // NICs per node in use
  int ranks() const { return nodes * gpus_per_node; }
};

// The layout a profile gives `nodes` nodes.
Layout make_layout(const HardwareProfile& profile, int nodes);

// nccl-tests' busbw = algbw × this: allreduce 2(p−1)/p, reduce-scatter and all-gather
// (p−1)/p, broadcast 1.
double bus_factor(Collective c, int ranks);

// Whether NCCL runs this combination: NVLS on one NVSwitch node (several need SHARP),
// NVLSTree on several, tree only for allreduce, broadcast only as a ring, NVLS and NVLSTree
// only with Simple, and only the profile's protocols.
bool available(Collective c, Algorithm a, Protocol p, const HardwareProfile& profile, const Layout& layout);

// NCCL's latency (µs) before its size-dependent ring plateau.
double nccl_latency_us(Collective c, Algorithm a, Protocol p, const HardwareProfile& profile,
                       const Layout& layout);

// NCCL's algorithm bandwidth (GB/s) for a protocol, from what the fabric gives the
// algorithm (`raw_bw`): for ring and tree NCCL's busBw (channels × the slowest channel's
// rate), for NVLS and NVLSTree their algorithm bandwidth. Applies NCCL's protocol
// refinements (LL 50 % payload and llMaxBw, LL128 120/128 and per-channel caps, tree caps)
// and its bus → algorithm conversion.
double nccl_algorithm_bw(Collective c, Algorithm a, Protocol p, double raw_bw,
                         const HardwareProfile& profile, const Layout& layout);

// The channels NCCL runs `bytes` on (enqueue.cc: fewer while a channel's threads would have
// less than their threshold each; NVLS and NVLSTree keep theirs).
int nccl_channels(Algorithm a, Protocol p, double bytes, const Layout& layout);
// Operations the data is split over: channels, times the NVLS heads (one per NIC) for NVLSTree.
int pipeline_ops(Algorithm a, int channels, const Layout& layout);
// The chunk NCCL pipelines (enqueue.cc calcCollChunking): fixed per protocol for rings and
// Simple trees, halved for LL128 trees and NVLS/NVLSTree until the pipeline has enough chunks;
// NVLSTree's is 64 KiB from four nodes on.
double nccl_chunk_bytes(Algorithm a, Protocol p, double bytes, int channels, const Layout& layout);
// Stages a chunk passes: tree 2((G−1) + ⌊log2 N⌋) (chain and tree, up and down), NVLS 2,
// NVLSTree 2 + 2⌊log2 N⌋; 1 for rings, whose steps NCCL's latency already counts.
int pipeline_depth(Algorithm a, const Layout& layout);
// NCCL's own estimate (µs): latency + size / bandwidth, tree correction included. What its
// tuner compares to choose; the fabric-aware prediction adds what it leaves out.
double nccl_estimate_us(Collective c, Algorithm a, Protocol p, double bytes, double alg_bw,
                        const HardwareProfile& profile, const Layout& layout);

// The terms of one predicted time, µs.
struct TimeTerms {
  double launch = 0, latency = 0, transfer = 0, sync = 0, fill = 0;
  double total() const { return launch + latency + transfer + sync + fill; }
};

// Predicted time for `bytes` (nccl-tests' size: the whole buffer) at algorithm bandwidth
// `alg_bw`, with NCCL's ring plateau and tree correction and the profile's calibration.
TimeTerms predict_time(Collective c, Algorithm a, Protocol p, double bytes, double alg_bw,
                       const HardwareProfile& profile, const Layout& layout);

// NCCL's double binary tree over n ranks (ncclGetDtree): parent[t][r] of rank r in tree t,
// −1 at a root. Tree 1 mirrors tree 0 (n even) or shifts it by one (n odd), so that a rank
// is an inner node in at most one of them.
struct DoubleTree {
  std::vector<int> parent[2];
};
DoubleTree double_binary_tree(int n);

}  // namespace slurmtopo
