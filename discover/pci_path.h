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

// True when the topology has PCI devices but not a single PCI-to-PCI bridge: PIX/PXB pairs
// are then indistinguishable from PHB. Two causes, told apart by pci_tree_flat().
bool pci_bridges_missing(hwloc_topology_t topology);

// True when every PCI device sits on its host bridge's own bus (bus 00 below a `[00-00]`
// host bridge): a flat PCI tree, as a VM's virtual PCI bus is — there never were bridges to
// export. False when some device's bus lies further down than its host bridge's bus, so a
// PCI-to-PCI bridge between them is missing from the export (old hwloc 1.x exports, or
// bridges filtered out).
bool pci_tree_flat(hwloc_topology_t topology);

}  // namespace slurmtopo
