#include "discover/pci_path.h"

#include <algorithm>
#include <vector>

#include "discover/hwloc_attr.h"

namespace slurmtopo {
namespace {

bool is_pci_bridge(hwloc_obj_t o) {
  return o->type == HWLOC_OBJ_BRIDGE && bridge_upstream_is(o, HWLOC_OBJ_BRIDGE_PCI);
}

bool is_host_bridge(hwloc_obj_t o) {
  return o->type == HWLOC_OBJ_BRIDGE && bridge_upstream_is(o, HWLOC_OBJ_BRIDGE_HOST);
}

// OS devices (cuda0, mlx5_0, rsmi3) sit below their PCI function; the path starts there.
hwloc_obj_t pci_function_of(hwloc_obj_t o) {
  while (o && o->type == HWLOC_OBJ_OS_DEVICE) o = o->parent;
  return o;
}

// PCI-to-PCI bridges strictly between `device` and its ancestor `stop`.
int bridges_between(hwloc_obj_t device, hwloc_obj_t stop) {
  int n = 0;
  for (hwloc_obj_t o = device->parent; o && o != stop; o = o->parent) n += is_pci_bridge(o);
  return n;
}

}  // namespace

hwloc_obj_t numa_node_of(hwloc_topology_t topology, hwloc_obj_t io) {
  const hwloc_obj_t cpu_side = hwloc_get_non_io_ancestor_obj(topology, io);
  if (!cpu_side || !cpu_side->cpuset) return nullptr;
  hwloc_obj_t found = nullptr;
  for (hwloc_obj_t n = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr); n;
       n = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, n)) {
    // CPU-less nodes (GPU memory on POWER9, CXL) intersect nothing and are skipped.
    if (!n->cpuset || !hwloc_bitmap_intersects(n->cpuset, cpu_side->cpuset)) continue;
    if (found) return nullptr;  // the parent spans several NUMA nodes
    found = n;
  }
  return found;
}

PathClass classify_pci_path(hwloc_topology_t topology, hwloc_obj_t a, hwloc_obj_t b) {
  a = pci_function_of(a);
  b = pci_function_of(b);
  if (!a || !b) return PathClass::Unknown;
  if (a == b) return PathClass::PIX;

  std::vector<hwloc_obj_t> above_a;
  for (hwloc_obj_t o = a; o; o = o->parent) above_a.push_back(o);
  hwloc_obj_t common = nullptr;
  for (hwloc_obj_t o = b; o && !common; o = o->parent)
    if (std::find(above_a.begin(), above_a.end(), o) != above_a.end()) common = o;
  if (!common) return PathClass::Unknown;

  if (is_pci_bridge(common))
    return std::max(bridges_between(a, common), bridges_between(b, common)) <= 1 ? PathClass::PIX
                                                                                : PathClass::PXB;
  if (is_host_bridge(common)) return PathClass::PHB;

  // The common ancestor is on the CPU side: the path leaves PCIe through two host bridges.
  const hwloc_obj_t numa_a = numa_node_of(topology, a);
  const hwloc_obj_t numa_b = numa_node_of(topology, b);
  if (numa_a && numa_b) return numa_a == numa_b ? PathClass::NODE : PathClass::SYS;
  return hwloc_get_non_io_ancestor_obj(topology, a) == hwloc_get_non_io_ancestor_obj(topology, b)
             ? PathClass::NODE
             : PathClass::SYS;
}

bool pci_bridges_missing(hwloc_topology_t topology) {
  if (!hwloc_get_next_pcidev(topology, nullptr)) return false;
  for (hwloc_obj_t o = hwloc_get_next_bridge(topology, nullptr); o; o = hwloc_get_next_bridge(topology, o))
    if (is_pci_bridge(o)) return false;
  return true;
}

bool pci_tree_flat(hwloc_topology_t topology) {
  for (hwloc_obj_t d = hwloc_get_next_pcidev(topology, nullptr); d; d = hwloc_get_next_pcidev(topology, d)) {
    const hwloc_obj_t parent = d->parent;
    if (parent && is_host_bridge(parent)) {
      if (hwloc_enum_value(parent->attr->bridge.downstream_type) != HWLOC_OBJ_BRIDGE_PCI) return false;
      if (parent->attr->bridge.downstream.pci.secondary_bus != d->attr->pcidev.bus) return false;
    } else if (!parent || parent->type == HWLOC_OBJ_BRIDGE || d->attr->pcidev.bus != 0) {
      return false;  // below a PCI device or a PCI bridge, or off bus 00 without a host bridge
    }
  }
  return true;
}

}  // namespace slurmtopo
