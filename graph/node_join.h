// Inside the node meets the fabric: for every GPU the NIC its inter-node traffic leaves
// through, that NIC's rail and leaf (joined by NIC node GUID = fabric CA GUID), and what is
// wrong with that path — the facts that make a gres.conf right and tell an admin that GPU 3 of
// one host lands on another leaf than GPU 3 of its peers.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "discover/node_inventory.h"
#include "discover/node_set.h"
#include "graph/cluster.h"
#include "graph/finding_kind.h"

namespace slurmtopo {

// The NIC a GPU uses, as NCCL would pick it.
struct NicChoice {
  int nic = -1;  // index into NodeInventory::nics; -1 when the node has no NIC
  PathClass path = PathClass::Unknown;
};

// Per GPU (Slurm index order), the nearest NIC: best PCIe path class first; among equally
// near NICs one on the GPU's own socket, then one fewer earlier GPUs chose (so two GPUs under
// one PCIe switch with two NICs get one each, as on DGX A100, instead of both taking the
// first), then PCI order. Deterministic: depends only on the inventory.
std::vector<NicChoice> nearest_nics(const NodeInventory& node);

// One GPU's way out of the node.
struct GpuPath {
  int gpu = 0;                       // Slurm index
  int nic = -1;                      // index into the node's nics, -1: none
  std::string nic_name;              // hwloc's name ("mlx5_3"), "" without a NIC
  PathClass path = PathClass::Unknown;
  int hca = -1;                      // index into Cluster::hcas; -1: no fabric, or not in it
  std::string rail;                  // the fabric's name for that HCA within its host
  std::vector<std::string> leaves;   // switches the HCA is cabled to (one per cabled port)
};

struct HostJoin {
  size_t node = 0;  // index into NodeSet::nodes
  int host = -1;    // index into Cluster::hosts; -1: no fabric, or the fabric lacks the host
  std::vector<GpuPath> gpus;
};

struct NodeAnomaly {
  enum class Kind {
    NoCloseNic,      // a GPU with no NIC at PIX/PXB distance
    SharedNic,       // GPUs share a NIC while another NIC of the same kind carries none
    RemoteNic,       // a GPU's NIC sits on the other socket
    RailLeaf,        // GPU k of a host lands on another leaf than GPU k of its unit's peers
    ClassLayout,     // hosts of one node class whose GPU→NIC layout differs
    NotInFabric,     // a GPU's NIC (or the whole host) is absent from the fabric
    NicIdentity,     // the fabric names that NIC GUID differently (other host or mlx5_N)
    NotThisCluster,  // no node described is a host of the fabric: inputs of two clusters
    // From the node probes (graph/node_health.h says when each fires).
    PcieDowntrained, PortDown, PortSlow, PortEthernet, NoGpuDirect, GpuMemory, ClassDrift, ProbeIncomplete,
    NoRdmaDevice, NoVerbsProvider, NcclIbHca, CudaTooNew, NcclDrift,
    Count            // not a kind: the number of kinds
  };
  Kind kind;
  std::string subject;  // a host, or a hostlist when several hosts share the same finding
  std::string detail;
  int count = 1;        // hosts it is about
};

// Each kind's name, check and severity, in Kind's order (graph/finding_kind.h).
inline constexpr FindingKind kNodeAnomalyKinds[] = {
    {"no-close-nic", "nodes.layout", Severity::Warn, "a GPU with no RDMA NIC under the same PCIe switch", "hosts"},
    {"shared-nic", "nodes.layout", Severity::Warn,
     "GPUs share a NIC while another NIC of the same kind carries none", "hosts"},
    {"remote-nic", "nodes.layout", Severity::Warn, "a GPU's nearest NIC sits on the other socket", "hosts"},
    {"rail-leaf", "nodes.layout", Severity::Fail, "GPU k of a host lands on another leaf than GPU k of its peers", "hosts"},
    {"class-layout", "nodes.layout", Severity::Fail, "hosts of one node class whose GPU-to-NIC layout differs", "hosts"},
    {"not-in-fabric", "nodes.layout", Severity::Fail, "a GPU's NIC, or the whole host, is absent from the fabric", "hosts"},
    {"nic-identity", "nodes.layout", Severity::Fail,
     "the fabric names a NIC's GUID for another host or another mlx5 device", "hosts"},
    {"not-this-cluster", "inputs.match", Severity::Fail,
     "no node export describes a host of the fabric: node files of another cluster", "hosts"},
    {"pcie-downtrained", "nodes.health", Severity::Fail,
     "a GPU or NIC below its PCIe width or speed (a GPU parked at Gen1 while idle is not one)", "devices"},
    {"nic-port-down", "nodes.health", Severity::Fail,
     "a GPU's nearest NIC, or a port its class peers have ACTIVE, is not ACTIVE", "ports"},
    {"nic-port-slow", "nodes.health", Severity::Fail,
     "an ACTIVE InfiniBand port below the node's other rails or its class peers' rate", "ports"},
    {"nic-port-ethernet", "nodes.health", Severity::Fail,
     "a rail port in Ethernet mode where the node's other rails or its peers are InfiniBand", "ports"},
    {"no-gpudirect", "nodes.health", Severity::Fail,
     "GPUs and an ACTIVE RDMA port, but no peer-memory module and no DMA-BUF", "hosts"},
    {"gpu-memory-errors", "nodes.health", Severity::Fail,
     "a GPU with a failed or pending row remap, or a pending page retirement", "GPUs"},
    {"class-drift", "nodes.health", Severity::Warn,
     "a host on another NVIDIA driver, kernel or NIC firmware than most of its class", "hosts"},
    {"probe-incomplete", "nodes.health", Severity::Warn, "a node probe record cut short (no end marker)", "records"},
    {"no-rdma-device", "nodes.container", Severity::Fail,
     "the job's container sees no /dev/infiniband/uverbs* on a node with RDMA ports", "hosts"},
    {"no-verbs-provider", "nodes.container", Severity::Fail,
     "the container sees the RDMA devices but the image has no libibverbs or no provider", "hosts"},
    {"nccl-ib-hca", "nodes.container", Severity::Fail,
     "the image's NCCL_IB_HCA names a device the node lacks, or leaves out a GPU's NIC", "hosts"},
    {"cuda-too-new", "nodes.container", Severity::Fail,
     "the image's CUDA needs a newer driver than the node's, and the image has no forward compatibility", "hosts"},
    {"nccl-version-drift", "nodes.container", Severity::Warn,
     "containers of one node class with different NCCL libraries", "hosts"},
};
static_assert(std::size(kNodeAnomalyKinds) == static_cast<size_t>(NodeAnomaly::Kind::Count));
const FindingKind& finding_kind(NodeAnomaly::Kind kind);
const char* to_string(NodeAnomaly::Kind kind);  // finding_kind(kind).name

// "GPU 3", "GPUs 0,1": the GPUs a node finding is about.
std::string gpu_list(const std::vector<int>& gpus);

// The most common of `values` (the least of equally common ones) and how many have it; with
// `runner_up`, how many have the next most common. Hosts of a class compared with the rest.
template <typename T>
std::pair<T, int> usual_value(const std::vector<T>& values, int* runner_up = nullptr) {
  std::map<T, int> counts;
  for (const T& v : values) ++counts[v];
  std::pair<T, int> best{};
  int second = 0;
  for (const auto& [v, k] : counts) {
    if (k > best.second) second = best.second, best = {v, k};
    else second = std::max(second, k);
  }
  if (runner_up) *runner_up = second;
  return best;
}

struct NodeJoin {
  std::vector<HostJoin> hosts;          // NodeSet::nodes order
  std::vector<NodeAnomaly> anomalies;   // by kind, then first host; equal findings merged
  bool joined = false;                  // a fabric was given
};

// `cluster` may be null: the node-only anomalies are still found (no rail, leaf or fabric
// ones). Never throws on inconsistent inputs: every inconsistency is an anomaly.
NodeJoin join_nodes(const NodeSet& nodes, const Cluster* cluster);

}  // namespace slurmtopo
