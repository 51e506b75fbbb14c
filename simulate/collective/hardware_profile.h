// What one GPU node is made of, as the collective model needs it: GPUs and their NVLink,
// PCIe, NICs (one per rail), and NCCL's own tuning constants for that GPU generation, plus
// the few constants fitted to published measurements (docs/simulator.md shows the fit).
//
// Profiles are YAML. The shipped ones (profiles/*.yaml) are compiled in, so `--profile
// h100-ndr` works from any directory; `--profile FILE.yaml` reads a file. A file may start
// from a shipped profile (`base: h100-ndr`) and override only what differs; without `base`
// every key is required. Unknown keys, wrong types and out-of-range values are InputErrors
// naming the file and line.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/node_inventory.h"

namespace slurmtopo {

// NCCL's orders (src/include/device.h), used to index the constant tables below.
enum class Protocol { LL = 0, LL128 = 1, Simple = 2 };
enum class Algorithm { Ring = 0, Tree = 1, Nvls = 2, NvlsTree = 3 };
constexpr int kProtocols = 3;
constexpr int kAlgorithms = 4;
const char* to_string(Protocol p);
const char* to_string(Algorithm a);

// Per protocol [LL, LL128, Simple].
using PerProtocol = std::array<double, kProtocols>;
// Per node-count bucket as NCCL indexes its caps: [1 node, 2 nodes, more].
using PerNodeBucket = std::array<double, 3>;

// One hardware class's latencies (NCCL's hwLat[class]), µs.
struct HwLatency {
  PerProtocol tree{}, ring{};
  double nvls = 0, nvlstree = 0;  // Simple only
};

// NCCL's tuning tables (src/graph/tuning.cc) for one GPU generation and CPU.
struct NcclConstants {
  PerProtocol base_tree{}, base_ring{};   // baseLat, µs
  HwLatency nvlink, pci, net;             // hwLat, µs
  PerNodeBucket ll_max_bw{};              // llMaxBws, GB/s (whole LL ring, not per channel)
  PerNodeBucket ring_ll128_per_channel{}; // perChMaxRingLL128Bws, GB/s
  PerNodeBucket tree_per_channel{};       // perChMaxTreeBws, GB/s
  PerNodeBucket tree_ll128_per_channel{}; // perChMaxTreeLL128Bws, GB/s
};

// Constants fitted to published measurements (docs/simulator.md). They add what NCCL's
// tuner leaves out because it is the same for every choice or too small to matter to it.
struct Calibration {
  double launch_us = 0;       // per call: kernel launch and completion seen by the caller
  // Per pipeline step on the critical path [LL, LL128, Simple]: what a chunk's
  // synchronisation costs (Simple: fence + flag; LL/LL128: flags travel with the data).
  PerProtocol step_us{};
  // Per network step: a step across N nodes waits for the slowest of them; with this spread
  // of one hop's latency the wait grows as spread × sqrt(2 ln N) (the expected maximum).
  double net_jitter_us = 0;
};

struct HardwareProfile {
  std::string name;         // "h100-ndr"
  std::string description;
  std::string source;       // "builtin:<name>" or the file it came from

  // GPUs
  std::string gpu_model;    // "H100"; its lower case is the gres Type it matches
  int sm = 0;               // compute capability ×10: 70, 80, 90, 100
  int gpus_per_node = 0;
  int nvlink_links = 0;                // per GPU; 0 = GPUs talk over PCIe
  double nvlink_gbs_per_link = 0;      // what NCCL moves per link, GB/s per direction
  double nvlink_line_gbs_per_link = 0; // signalling rate per link (the physical limit)
  bool nvswitch = false;
  bool nvls = false;                   // NVLink SHARP (multicast + in-switch reduction)
  double nvls_efficiency = 0;          // NCCL's nvlsEfficiency
  // Multi-node NVLink (MNNVL, GB200/GB300 NVL72): the nodes one NVLink domain holds (18
  // compute trays), 1 where the node is the domain. NCCL fuses a domain's GPUs into one of
  // its nodes (simulate/collective/nvlink_domain.h).
  int nvlink_domain_nodes = 1;
  // The NICs NCCL's search puts channels on between domains (GPU-first order); 0: all of them.
  int nvlink_domain_nics = 0;
  // NVLS across the trays of a domain: the algorithm bandwidth one GPU reaches (GB/s), fitted
  // (docs/simulator.md): measured NVLS busbw stays flat from 8 to 72 GPUs where the per-port
  // count would let it grow by a quarter. 0: no ceiling.
  double nvlink_domain_nvls_gbs = 0;
  // Not read from YAML: the hosts one node of the model spans (fuse_nvlink_domains sets it on
  // an NVLink domain's profile; 1 for a node that is its own domain).
  int node_spans = 1;

  // PCIe between a GPU and its NIC
  int pcie_gen = 0;
  int pcie_width = 0;

  // NICs: one per rail
  LinkSpeed nic_speed = LinkSpeed::Unknown;
  int nics_per_node = 0;
  double nic_gbs = 0;       // what NCCL moves through one NIC, GB/s per direction

  std::string cpu_vendor;   // "intel", "amd" or "arm" (Grace): NCCL's network overhead per step
  int channels = 0;         // NCCL channels (rings, trees); rounded up to a multiple of rails
  std::array<bool, kProtocols> protocols{};  // enabled, as NCCL_PROTO would say

  NcclConstants nccl;
  Calibration calibration;

  double nvlink_gbs() const { return nvlink_links * nvlink_gbs_per_link; }
  double nvlink_line_gbs() const { return nvlink_links * nvlink_line_gbs_per_link; }
  double pcie_gbs() const;       // NCCL's figure: Gen4 x16 → 24, Gen5 x16 → 48
  double pcie_line_gbs() const;  // per direction after encoding: Gen4 x16 31.5, Gen5 x16 63
  double nic_line_gbs() const;   // 4x signalling / 8: HDR 25, NDR 50, XDR 100
  double net_overhead_us() const { return cpu_vendor == "amd" ? 2.0 : 1.0; }
  int compute_generation() const;  // NCCL's compCapIndex: 0 Volta … 3 Blackwell
};

// The names of the compiled-in profiles, sorted.
std::vector<std::string> builtin_profile_names();
// The YAML text of a compiled-in profile; empty when there is none of that name.
std::string builtin_profile_text(const std::string& name);

// A compiled-in profile by name, or a YAML file by path (anything ending in .yaml/.yml or
// containing '/'). Throws InputError naming the file and line of the first problem.
HardwareProfile load_profile(const std::string& name_or_path);
// Parses YAML text; `source` names it in errors.
HardwareProfile parse_profile(const std::string& yaml, const std::string& source);

// The profile for a node as hwloc described it: the shipped profile of its GPU type (a100,
// h100, h200, b200), with the node's GPU count, NVLink links (when hwloc saw direct ones),
// NIC count and, when `nic_speed` is known (from the fabric), that NIC speed. Throws
// InputError when no shipped profile knows the GPU type.
HardwareProfile profile_for_node(const NodeInventory& node, LinkSpeed nic_speed = LinkSpeed::Unknown);

// What NCCL moves through one NIC of that speed (GB/s): EDR 12, HDR 24, NDR 48, XDR 96.
double nic_effective_gbs(LinkSpeed speed);

}  // namespace slurmtopo
