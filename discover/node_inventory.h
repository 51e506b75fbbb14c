// What is inside one node, as hwloc sees it: CPUs, memory, GPUs, RDMA NICs, and how they sit
// on PCIe relative to each other. Produced by discover/hwloc_node.* from a live machine or an
// XML export; consumed by graph/ (joining NICs to the fabric) and emit/ (gres.conf, NodeName).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "discover/node_probe.h"

namespace slurmtopo {

// nvidia-smi topo -m's classes, nearest first. NVLink is not a PCIe class: see Gpu::nvlinks.
// X is a device against itself (the diagonal of gpu_gpu), as nvidia-smi topo -m prints it.
enum class PathClass { PIX, PXB, PHB, NODE, SYS, Unknown, X };
const char* to_string(PathClass c);

struct Gpu {
  int index = 0;              // Slurm's index: position in ascending PCI bus id order
  std::string vendor;         // "nvidia", "amd"
  std::string model;          // as hwloc names it, e.g. "NVIDIA H100 80GB HBM3"
  std::string slurm_type;     // gres Type, e.g. "h100"
  std::string pci_busid;      // "0000:1b:00.0"
  std::string device_file;    // "/dev/nvidia0", "/dev/dri/renderD128"
  std::vector<int> cores;     // Slurm's core indices (socket-major Core L#) local to the GPU
  int numa_node = -1;         // OS index of its NUMA node, -1 if unknown
  int socket = -1;            // L# of its package
  // Direct NVLink/XGMI link counts to each other GPU by Slurm index; empty when the export
  // has no matrix (and on NVSwitch systems, where no GPU-GPU link exists).
  std::vector<int> nvlinks;
  // NVLinks from this GPU into NVSwitches (DGX-2: 6, DGX H100: 18); 0 when it has none or the
  // export does not say. Not a Links= value: no GPU-GPU link exists on such systems.
  int nvswitch_links = 0;
};

struct RdmaNic {
  std::string name;           // "mlx5_0"
  uint64_t node_guid = 0;     // join key with the fabric's CA GUID
  std::vector<uint64_t> port_guids;
  std::string pci_busid;
  std::string link_layer;     // "InfiniBand", "Ethernet", "" when unknown
  int numa_node = -1;
  int socket = -1;
};

struct NodeInventory {
  std::string hostname;
  std::string source;         // XML path or "live"
  int sockets = 0, cores_per_socket = 0, threads_per_core = 0, numa_nodes = 0;
  uint64_t memory_mib = 0;    // RealMemory candidate (total, MiB)
  std::vector<Gpu> gpus;      // Slurm index order
  std::vector<RdmaNic> nics;  // PCI order
  // gpu_nic[g][n], gpu_gpu[g][h]: PCIe path class between devices; gpu_gpu[g][g] is X.
  std::vector<std::vector<PathClass>> gpu_nic, gpu_gpu;
  bool pci_bridges_missing = false;  // old exports: PIX cannot be told from PHB
  std::vector<std::string> warnings;
  // What collect's node probe recorded next to the export (<host>.probe), and inside the job's
  // container (<host>.container.probe); judged by graph/node_health.h, not part of the signature.
  std::optional<NodeProbe> probe, container_probe;

  // Equal for hosts Slurm can describe with one NodeName/gres.conf line.
  std::string hardware_signature() const;
};

}  // namespace slurmtopo
