// GPU product facts that an hwloc export does not state: the short gres Type for a model
// name or PCI id, and how much NVLinkBandwidth one NVLink of that product contributes.
#pragma once

#include <string>
#include <string_view>

namespace slurmtopo {

constexpr unsigned kPciVendorNvidia = 0x10de;
constexpr unsigned kPciVendorAmd = 0x1002;
constexpr unsigned kPciVendorIntel = 0x8086;

// The gres Type: the short lowercase product ("h100", "v100", "a100", "t4", "mi250x",
// "mi300a", "mi50"). Short on purpose: slurmd's AutoDetect types are the whole lowercased
// device name ("nvidia_h100_80gb_hbm3", "tesla_v100-sxm2-16gb"), which contain it.
//   NVIDIA: the product word of the name (NVML/CUDA names are exact), else the PCI id.
//   AMD:    the PCI id first — RSMI names are unreliable in real exports ("AMD INSTINCT
//           MI200 (MCM) ..." for an MI250X, "deon Instinct MI50" truncated, "Vega 20") —
//           else an "MIxxx" word of the name.
// Unknown products fall back to the name made safe for gres.conf (lowercase, [a-z0-9._-]),
// and "" when there is no name either (the caller omits Type and warns).
std::string slurm_gpu_type(std::string_view model, unsigned vendor_id, unsigned device_id);

// A product name for a PCI id, for exports that name nothing (no NVML/CUDA/RSMI device, no
// PCIDevice info). "" when the id is not in the table.
std::string pci_gpu_model(unsigned vendor_id, unsigned device_id);

// What one NVLink adds to hwloc's NVLinkBandwidth matrix for this gres Type, in MB/s; 0 when
// unknown. hwloc (topology-nvml.c) adds, per active link, 20000 for NVLink 1.0 and 25000 for
// NVLink 2.0-4.0, so the generation of the product decides:
//   P100 (NVLink 1)                                  20000  power8gpudistances: 40000 = 2 links
//   V100 (NVLink 2), A100/A800/A30/A40 (NVLink 3),
//   H100/H200/H800/H20/GH200 (NVLink 4)              25000  ipa20 H100: 150000 = 6 links
// Blackwell (NVLink 5) is not in hwloc 2.9-2.12's table: 0, the matrix is not trusted.
unsigned nvlink_link_bandwidth(std::string_view slurm_type);

}  // namespace slurmtopo
