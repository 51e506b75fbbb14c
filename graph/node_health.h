// What the node probes say about each node (NodeInventory::probe, ::container_probe): the
// faults that let a job run without an error at a fraction of its speed, or over TCP sockets.
// Each finding names the node, the device (GPU index and bus id, mlx5 device and port) and the
// fix. The kinds, checks and severities are declared with NodeAnomaly's (node_join.h):
//   pcie-downtrained   a GPU or NIC below its PCIe width, or speed (a GPU at Gen1 is idle, not
//                      a fault: NVIDIA GPUs lower their link speed when idle)
//   nic-port-down      a rail NIC's port (a GPU's nearest NIC), or one its class peers have
//                      ACTIVE, that is not ACTIVE
//   nic-port-slow      an ACTIVE port below the node's other rails or its class peers' rate
//   nic-port-ethernet  a rail port in Ethernet mode where the other rails are InfiniBand
//   no-gpudirect       GPUs and an RDMA NIC, but no peer-memory module and no DMA-BUF (the
//                      proprietary kernel module, or a kernel before 5.12)
//   gpu-memory-errors  a failed or pending row remap, or a pending page retirement
//   class-drift        hosts of one class on another driver, kernel or NIC firmware
//   probe-incomplete   a record without its end marker
//   no-rdma-device     the container sees no /dev/infiniband/uverbs* although the node has RDMA ports
//   no-verbs-provider  it sees them, but the image has no libibverbs or no provider
//   nccl-ib-hca        the image's NCCL_IB_HCA names a device the node lacks, or leaves out a rail
//   cuda-too-new       the image's CUDA is of a newer major than the driver runs, without the
//                      forward-compatibility libraries (or a driver below the major's minimum)
//   nccl-version-drift containers of one class with different NCCL libraries
#pragma once

#include <string>
#include <vector>

#include "discover/node_set.h"
#include "graph/node_join.h"

namespace slurmtopo {

struct HostFinding {
  NodeAnomaly::Kind kind;
  std::string host;
  std::string detail;
};

// A GPU or NIC whose PCIe link trained below its maximum, from the node's probe.
struct DowntrainedLink {
  std::string bdf;
  bool gpu = false;                // a GPU (else a NIC: `nics` names its mlx5 devices)
  std::vector<std::string> nics;
  std::string who;                 // "GPU 3 (0000:1b:00.0)", "mlx5_2 (0000:3a:00.0)"
  std::string link;                // "x8 Gen5"
  double share = 1;                // of the bandwidth at its maximum link
  std::string detail;              // the pcie-downtrained finding's text
};
std::vector<DowntrainedLink> downtrained_links(const NodeInventory& node);

// Per GPU of `h` (its order): the share of its PCIe figure that its way to the network keeps
// when the GPU's own link or its NIC's trained low (1 and "" when neither), for the prediction.
struct PcieShare {
  double share = 1;
  std::string why;  // "GPU 3 (0000:1b:00.0) at x8 Gen5"
};
std::vector<PcieShare> gpu_pcie_shares(const NodeInventory& node, const HostJoin& h);

// `join.hosts` gives each GPU's nearest NIC (the rails). Nodes without a probe give nothing.
std::vector<HostFinding> node_health_findings(const NodeSet& set, const NodeJoin& join);

// NCCL_IB_HCA's matching (NCCL's parseStringList/matchIfList): "^" excludes, "=" makes names
// exact (else a prefix: mlx5_1 takes mlx5_10), ":port" limits the port. True when NCCL would
// use `device` port `port` under `spec`.
bool nccl_ib_hca_uses(const std::string& spec, const std::string& device, int port);

}  // namespace slurmtopo
