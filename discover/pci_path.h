// The PCIe path class between two I/O devices of one hwloc topology, as `nvidia-smi topo -m`
// prints it (PIX, PXB, PHB, NODE, SYS).
#pragma once

#include <hwloc.h>

#include "discover/node_inventory.h"

namespace slurmtopo {

// `a` and `b` are PCI devices (or OS devices below them) of `topology`. Rules, counting only
// PCI-to-PCI bridges strictly below the nearest common ancestor:
//   same PCI device                                   PIX (MI300A partitions share one)
//   ancestor is a PCI bridge, <= 1 bridge each side   PIX (one switch: upstream port + a
//                                                          downstream port per device)
//   ancestor is a PCI bridge, more bridges            PXB
//   ancestor is a host bridge                         PHB
//   different host bridges, same NUMA node            NODE
//   otherwise (NUMA nodes or packages apart)          SYS
// "Same NUMA node" means both devices' CPU-side parents lie inside one NUMA node, or the
// parent is one object spanning several (old exports that hang I/O off a Package/Machine).
// Parents are walked by hand: hwloc_get_common_ancestor_obj() crashes on I/O objects.
PathClass classify_pci_path(hwloc_topology_t topology, hwloc_obj_t a, hwloc_obj_t b);

// The NUMA node (CPU-bearing) that contains `io`'s CPU-side parent, or nullptr when that
// parent spans several NUMA nodes.
hwloc_obj_t numa_node_of(hwloc_topology_t topology, hwloc_obj_t io);

// True when the topology has PCI devices but not a single PCI-to-PCI bridge: hwloc 1.11-era
// exports dropped them, and then PIX/PXB pairs are indistinguishable from PHB.
bool pci_bridges_missing(hwloc_topology_t topology);

}  // namespace slurmtopo
