// Direct GPU-GPU link counts (Slurm's Links=) from the distance matrices hwloc exports:
// NVLinkBandwidth for NVIDIA, XGMIHops / XGMIBandwidth for AMD.
#pragma once

#include <hwloc.h>

#include <string>
#include <vector>

#include "discover/node_inventory.h"

namespace slurmtopo {

// How hwloc holds one GPU: its PCI function, and for one of several partitions of that
// function (MI300A in TPX/CPX mode) the RSMI OS device that is this GPU.
struct GpuObjects {
  hwloc_obj_t pci = nullptr;
  hwloc_obj_t partition = nullptr;
};

// Sets Gpu::nvlinks (index = Slurm GPU index, -1 at the GPU itself, 0 = no direct link) and
// appends to `warnings`. `objects[i]` is `gpus[i]`. Left empty when:
//   - the export has no matrix (hwloc < 2.5, no NVML/RSMI plugin at capture, PCIe GPUs);
//   - the matrix links GPUs to NVSwitch PCI devices (DGX-2, HGX): NVML then reports no
//     direct GPU-GPU link, and neither may gres.conf; Gpu::nvswitch_links gets each GPU's
//     links into the switches instead;
//   - NVLink bandwidth cannot be turned into links (unknown generation, see gpu_models.h).
// NVLink: links = bandwidth / per-link bandwidth of the GPU's generation. XGMI: hwloc records
// a fixed 100000 per XGMI peer whatever the lane count (topology-rsmi.c), so a direct link
// (1 hop, or bandwidth > 0 when only that matrix exists) counts as 1.
void read_gpu_links(hwloc_topology_t topology, const std::vector<GpuObjects>& objects,
                    std::vector<Gpu>& gpus, std::vector<std::string>& warnings);

}  // namespace slurmtopo
