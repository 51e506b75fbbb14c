// What the node probe (node_probe_script.h) recorded on one node, on the host or inside the
// job's container: PCIe links of GPUs and NICs, RDMA ports, GPUDirect RDMA markers, the verbs
// stack, CUDA/NCCL in sight, NCCL_* settings, and `nvidia-smi -q`. Facts only: graph/
// node_health.h judges them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slurmtopo {

// One PCI function as sysfs gives it (/sys/bus/pci/devices/BDF). Speeds in GT/s, 0 where sysfs
// has none (no PCIe link: a VM's virtio device, a root complex integrated function).
struct PciFunction {
  std::string bdf;           // "0000:1b:00.0"
  uint32_t class_code = 0;   // 0x030200
  uint16_t vendor = 0, device = 0;
  int numa = -1;
  double speed = 0, max_speed = 0;  // GT/s
  int width = 0, max_width = 0;     // lanes
  // The maximum of the port above it (the slot's), 0 where the record has none: the link can
  // train no higher than the lesser of the two.
  double up_max_speed = 0;
  int up_max_width = 0;
  double link_max_speed() const { return up_max_speed > 0 ? std::min(max_speed, up_max_speed) : max_speed; }
  int link_max_width() const { return up_max_width > 0 ? std::min(max_width, up_max_width) : max_width; }
};
// 2.5 → 1, 5 → 2, 8 → 3, 16 → 4, 32 → 5, 64 → 6; 0 for anything else.
int pcie_generation(double gts);

// One RDMA port (/sys/class/infiniband/DEV/ports/N).
struct RdmaPort {
  std::string device;      // "mlx5_0"
  int port = 0;
  std::string state;       // "ACTIVE", "DOWN", "INIT", "ARMED" (sysfs "4: ACTIVE" without the number)
  std::string phys_state;  // "LinkUp", "Polling", "Disabled"
  double rate_gbps = 0;    // "400 Gb/sec (4X NDR)" → 400
  std::string rate;        // as sysfs has it
  std::string link_layer;  // "InfiniBand", "Ethernet"
  std::string pci;         // the HCA's PCI function
  std::string firmware;    // fw_ver
};

// One GPU as `nvidia-smi -q` reports it. -1 where it says N/A or nothing.
struct GpuReport {
  std::string bus_id;      // "0000:1b:00.0" (nvidia-smi's 8-digit domain cut to 4)
  std::string name;        // "NVIDIA H200"
  int gen_max = -1, gen_current = -1, width_max = -1, width_current = -1;
  int host_gen_max = -1;   // the slot's maximum, where nvidia-smi knows it
  bool remap_pending = false, remap_failed = false, retire_pending = false;
  long dram_uncorrectable = -1;  // aggregate (ECC Errors › Aggregate), -1 unknown
  int line = 0;            // where its block starts in the record
};

struct NvidiaSmi {
  bool present = false;    // the record holds nvidia-smi -q output
  std::string driver;      // "580.159.04"
  std::string cuda;        // "13.0": the newest CUDA this driver runs
  std::vector<GpuReport> gpus;
};

struct NodeProbe {
  std::string source;      // the file
  std::string where;       // "host" or "container"
  std::string host, kernel;
  bool complete = false;   // the end marker was there: a record without it was cut short
  std::vector<PciFunction> pci;
  std::vector<RdmaPort> ports;
  // GPUDirect RDMA: the peer-memory module (nvidia-peermem / nv_peer_mem) or its files, and the
  // NVIDIA kernel module's banner ("" where /proc/driver/nvidia/version was not readable).
  bool peermem = false;
  std::string nvidia_module;
  bool open_module = false;  // "Open Kernel Module" in the banner: DMA-BUF is possible
  // The verbs stack as a job sees it.
  std::vector<std::string> rdma_devices;  // /dev/infiniband entries: "uverbs0", "rdma_cm"
  bool libibverbs = false;
  std::vector<std::string> providers;     // /etc/libibverbs.d/*.driver names and provider libraries
  // CUDA and NCCL in sight.
  std::string toolkit_cuda;   // /usr/local/cuda/version.json
  std::string env_cuda;       // $CUDA_VERSION
  bool cuda_compat = false;   // /usr/local/cuda/compat/libcuda.so.* (forward compatibility)
  std::vector<std::string> nccl_versions;  // from libnccl.so.X.Y.Z names, "2.21.5"
  std::vector<std::pair<std::string, std::string>> nccl_env;  // NCCL_IB_HCA=...
  NvidiaSmi nvidia_smi;
  std::vector<std::string> missing;  // tools and paths the probe did not find

  // The CUDA the image or node would run: version.json's, else $CUDA_VERSION; "" when neither.
  std::string cuda_in_use() const;
  const std::string* env(std::string_view name) const;
};

// Throws InputError(source, line, ...) for a record that is not one (no header, another
// format version), a [pci] or [ib] line that does not parse, an unknown section. A record
// without its end marker is not an error: complete stays false.
NodeProbe parse_node_probe(std::string_view text, const std::string& source);

// `nvidia-smi -q` text, as the probe stores it or as saved by hand. first_line: the number of
// the text's first line in its file, for errors and GpuReport::line.
NvidiaSmi parse_nvidia_smi_q(std::string_view text, const std::string& source, int first_line = 1);

// One line of [pci] (the probe's sysfs format). Throws InputError(source, line, ...).
PciFunction parse_pci_function(std::string_view line, const std::string& source, int line_number);

}  // namespace slurmtopo
