// NCCL's topology XML for one node (the `<system version="1">` format NCCL_TOPO_DUMP_FILE
// writes and NCCL_TOPO_FILE reads), for nodes where a VM or container hides the PCI tree and
// NCCL would otherwise see every GPU and NIC as SYS-far. What slurmtopo knows from the hwloc
// export is written: one <cpu numaid=N> per NUMA node holding devices; the GPUs and NICs that
// share a PCIe switch (PIX or PXB to each other) under one virtual switch (busid ffff:ff:NN.0,
// as Azure's hand-written files do); the others directly under their NUMA node. NCCL fills the
// rest (GPU sm/rank, NIC speed and GUIDs, CPU affinity) from the running node, as it does for
// those files. A virtual switch's link is declared PCIe 5.0 x16 (NCCL needs one; the export
// does not say the switch's width).
#pragma once

#include <string>

#include "discover/node_inventory.h"

namespace slurmtopo {

// The XML body (no comment): same inventory, same bytes.
std::string render_nccl_topo(const NodeInventory& node);

}  // namespace slurmtopo
