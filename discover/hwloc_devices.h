// Which PCI functions of an hwloc topology are GPUs and which are RDMA NICs (the rules are
// in hwloc_node.h), with the names, ids and device files each carries.
#pragma once

#include <hwloc.h>

#include <vector>

#include "discover/gpu_links.h"
#include "discover/node_inventory.h"

namespace slurmtopo {

struct FoundGpu {
  Gpu gpu;              // index, vendor, model, slurm_type, pci_busid, device_file set
  GpuObjects objects;
};

struct FoundNic {
  RdmaNic nic;          // name, GUIDs, pci_busid, link_layer set
  hwloc_obj_t pci = nullptr;
};

// In Slurm index order (PCI bus id, then partition).
std::vector<FoundGpu> find_gpus(hwloc_topology_t topology);

// In PCI order, then name.
std::vector<FoundNic> find_nics(hwloc_topology_t topology);

// "0000:1b:00.0"
std::string pci_busid(hwloc_obj_t pci);

}  // namespace slurmtopo
