#include "discover/hwloc_node.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "base/files.h"
#include "discover/hwloc_devices.h"
#include "discover/hwloc_topology.h"
#include "discover/meminfo.h"
#include "discover/node_json.h"
#include "discover/pci_path.h"

namespace slurmtopo {
namespace {

std::vector<hwloc_obj_t> objects(hwloc_topology_t t, hwloc_obj_type_t type) {
  std::vector<hwloc_obj_t> out;
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(t, type, nullptr); o; o = hwloc_get_next_obj_by_type(t, type, o))
    out.push_back(o);
  return out;
}

bool has_cpus(hwloc_obj_t o) { return o->cpuset && !hwloc_bitmap_iszero(o->cpuset); }

int weight(hwloc_const_bitmap_t b) { return b ? hwloc_bitmap_weight(b) : 0; }

// The line of the `index`-th (0-based) package object of an XML export ("Package" in format
// 2.0, "Socket" in 1.x; logical order is document order), 0 when it cannot be found (a live
// node, or a file gone since).
int package_line(const std::string& source, unsigned index) {
  std::string text;
  if (source == "live" || !read_file_if_exists(source, text)) return 0;
  size_t pos = 0;
  for (unsigned seen = 0;; ++seen) {
    const size_t a = text.find("type=\"Package\"", pos), b = text.find("type=\"Socket\"", pos);
    pos = std::min(a, b);
    if (pos == std::string::npos) return 0;
    if (seen == index) return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
    ++pos;
  }
}

// The line of the first `needle` in an XML export, 0 when it is not there (or a live node).
int line_of(const std::string& source, const std::string& needle) {
  std::string text;
  if (source == "live" || !read_file_if_exists(source, text)) return 0;
  const size_t pos = text.find(needle);
  return pos == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// NUMA node numbers as Linux gives them (below 1024; node JSON allows up to 2^20): a larger
// os_index is a damaged export, which would otherwise give GPUs and NICs an impossible NUMA node.
void check_numa_indexes(hwloc_topology_t t, const std::string& source) {
  constexpr unsigned kMax = 1u << 20;
  for (hwloc_obj_t n : objects(t, HWLOC_OBJ_NUMANODE))
    if (n->os_index != HWLOC_UNKNOWN_INDEX && n->os_index > kMax)
      throw InputError(source, line_of(source, "type=\"NUMANode\" os_index=\"" + std::to_string(n->os_index) + "\""),
                       "expected a NUMA node number as Linux gives them (below " + std::to_string(kMax) + "), not " +
                           std::to_string(n->os_index) + ": the export is damaged — export it again on the node with "
                           "`lstopo --of xml` (or `slurmtopo collect`)");
}

// Sockets, cores per socket, threads per core, as slurmd -C derives them from the same hwloc
// objects. Packages with different core counts cannot be one NodeName line: warn, keep max.
// No package with a core at all (cpusets that cover none, in a damaged export) is no node Slurm
// can describe (CoresPerSocket=0): an InputError at the first package.
void read_cpus(hwloc_topology_t t, NodeInventory& inv, const std::string& source) {
  const std::vector<hwloc_obj_t> packages = objects(t, HWLOC_OBJ_PACKAGE);
  const std::vector<hwloc_obj_t> cores = objects(t, HWLOC_OBJ_CORE);
  const std::vector<hwloc_obj_t> pus = objects(t, HWLOC_OBJ_PU);
  inv.sockets = std::max<int>(1, static_cast<int>(packages.size()));
  const hwloc_obj_type_t core_type = cores.empty() ? HWLOC_OBJ_PU : HWLOC_OBJ_CORE;
  std::vector<int> per_package;
  for (hwloc_obj_t p : packages)
    per_package.push_back(hwloc_get_nbobjs_inside_cpuset_by_type(t, p->cpuset, core_type));
  if (per_package.empty()) per_package.push_back(static_cast<int>(cores.empty() ? pus.size() : cores.size()));
  inv.cores_per_socket = *std::max_element(per_package.begin(), per_package.end());
  if (inv.cores_per_socket == 0) {
    char* cpuset = nullptr;
    if (!packages.empty() && packages.front()->cpuset) hwloc_bitmap_asprintf(&cpuset, packages.front()->cpuset);
    const std::string set = cpuset ? cpuset : "";
    std::free(cpuset);
    throw InputError(source, package_line(source, 0),
                     "expected each package to hold cores (Slurm's CoresPerSocket); no package holds one (package L#0's "
                     "cpuset " + set + " covers no core): the export is damaged — export it again on the node with "
                     "`lstopo --of xml` (or `slurmtopo collect`)");
  }
  if (*std::min_element(per_package.begin(), per_package.end()) != inv.cores_per_socket)
    inv.warnings.push_back("packages have different core counts; CoresPerSocket uses the largest (" +
                           std::to_string(inv.cores_per_socket) + ")");
  int threads = 1;
  for (hwloc_obj_t c : cores) threads = std::max(threads, weight(c->cpuset));
  inv.threads_per_core = threads;

  const int present = weight(hwloc_topology_get_topology_cpuset(t));
  const int complete = weight(hwloc_topology_get_complete_cpuset(t));
  const int allowed = weight(hwloc_topology_get_allowed_cpuset(t));
  if (allowed < present)
    inv.warnings.push_back("captured inside a cgroup: only " + std::to_string(allowed) + " of " +
                           std::to_string(present) +
                           " PUs were allowed; cores are counted from the whole node");
  if (complete > present)
    inv.warnings.push_back(std::to_string(complete - present) +
                           " PUs are offline or absent from this export (complete_cpuset is larger): "
                           "they are not counted, as slurmd would not count them");
}

// RealMemory and NUMA count over NUMA nodes with CPUs. CPU-less ones are device memory (V100
// HBM on POWER9 as nodes 252-255) or CXL, which RealMemory must not promise.
void read_memory(hwloc_topology_t t, NodeInventory& inv) {
  uint64_t bytes = 0;
  std::string cpuless;
  for (hwloc_obj_t n : objects(t, HWLOC_OBJ_NUMANODE)) {
    if (has_cpus(n)) {
      ++inv.numa_nodes;
      bytes += n->attr->numanode.local_memory;
    } else {
      cpuless += (cpuless.empty() ? "" : ",") + std::to_string(n->os_index);
    }
  }
  if (inv.numa_nodes == 0) {  // exports without NUMA objects: the machine's total
    inv.numa_nodes = 1;
    bytes = hwloc_get_root_obj(t)->total_memory;
  }
  inv.memory_mib = bytes / (1024 * 1024);
  if (!cpuless.empty())
    inv.warnings.push_back("CPU-less NUMA nodes " + cpuless +
                           " (device or CXL memory) are left out of memory_mib and numa_nodes");
}

// Slurm's core ids local to an I/O object: Core L# of every core inside its CPU-side parent.
std::vector<int> local_cores(hwloc_topology_t t, hwloc_obj_t io) {
  const hwloc_obj_t cpu_side = hwloc_get_non_io_ancestor_obj(t, io);
  std::vector<int> cores;
  if (!cpu_side || !cpu_side->cpuset) return cores;
  const bool have_cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0;
  for (hwloc_obj_t c : objects(t, have_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU))
    if (c->cpuset && hwloc_bitmap_intersects(c->cpuset, cpu_side->cpuset))
      cores.push_back(static_cast<int>(c->logical_index));
  return cores;
}

int socket_of(hwloc_topology_t t, hwloc_obj_t io) {
  const hwloc_obj_t cpu_side = hwloc_get_non_io_ancestor_obj(t, io);
  if (!cpu_side || !cpu_side->cpuset) return -1;
  int found = -1;
  for (hwloc_obj_t p : objects(t, HWLOC_OBJ_PACKAGE)) {
    if (!p->cpuset || !hwloc_bitmap_intersects(p->cpuset, cpu_side->cpuset)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(p->logical_index);
  }
  return found;
}

int numa_os_index(hwloc_topology_t t, hwloc_obj_t io) {
  const hwloc_obj_t n = numa_node_of(t, io);
  return n ? static_cast<int>(n->os_index) : -1;
}

bool has_io(hwloc_topology_t t) {
  return hwloc_get_next_pcidev(t, nullptr) || hwloc_get_next_osdev(t, nullptr);
}

std::string short_name(std::string name) {
  const size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// Why an export with PCI devices has no PCI bridge: a VM's flat PCI bus (nothing to export),
// or bridges the exporting hwloc left out (1.x, or 2.x told to filter them). The export's
// hwlocVersion (lstopo records it) and where the devices sit tell the two apart.
std::string missing_bridges_warning(hwloc_topology_t t) {
  const char* v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "hwlocVersion");
  const std::string version = v && *v ? v : "";
  const std::string consequence = "devices under one host bridge are reported PHB although they may share a switch (PIX/PXB)";
  if (pci_tree_flat(t)) {
    int devices = 0;
    for (hwloc_obj_t d = hwloc_get_next_pcidev(t, nullptr); d; d = hwloc_get_next_pcidev(t, d)) ++devices;
    return "export has no PCI bridges: its PCI tree is flat (" + (version.empty() ? "" : "hwloc " + version + "; ") +
           "all " + std::to_string(devices) + " PCI devices sit directly on their host bridge's bus, as in a VM, "
           "whose hypervisor hides the host's PCIe switches): " + consequence + " on the host";
  }
  std::string who;
  if (version.empty()) who = "the exporting hwloc (its version is not in the export) left them out";
  else if (version[0] == '0' || version[0] == '1') who = "hwloc " + version + " left them out, as 1.x exports often do";
  else who = "hwloc " + version + " exported it with bridges filtered out";
  return "export has no PCI bridges: " + who + " (its devices sit on buses below their host bridge's): " + consequence;
}

}  // namespace

NodeInventory inventory_from_topology(hwloc_topology_t t, const std::string& hostname,
                                      const std::string& source) {
  NodeInventory inv;
  inv.hostname = hostname;
  inv.source = source;
  read_cpus(t, inv, source);
  read_memory(t, inv);
  check_numa_indexes(t, source);
  if (!has_io(t)) {
    // Without I/O objects a GPU node looks like a CPU node; emitting anything for it would
    // be wrong, so say so loudly and leave GPUs and NICs empty.
    inv.warnings.push_back("no I/O devices in export (exported with --no-io?): GPUs and NICs "
                           "cannot be seen; re-export with `lstopo --of xml --whole-io`");
    return inv;
  }

  std::vector<FoundGpu> gpus = find_gpus(t);
  std::vector<FoundNic> nics = find_nics(t);
  std::vector<GpuObjects> gpu_objects;
  for (auto& f : gpus) {
    f.gpu.cores = local_cores(t, f.objects.pci);
    f.gpu.numa_node = numa_os_index(t, f.objects.pci);
    f.gpu.socket = socket_of(t, f.objects.pci);
    gpu_objects.push_back(f.objects);
    inv.gpus.push_back(f.gpu);
  }
  for (auto& f : nics) {
    f.nic.numa_node = numa_os_index(t, f.pci);
    f.nic.socket = socket_of(t, f.pci);
    inv.nics.push_back(f.nic);
  }

  inv.gpu_nic.assign(gpus.size(), std::vector<PathClass>(nics.size(), PathClass::Unknown));
  inv.gpu_gpu.assign(gpus.size(), std::vector<PathClass>(gpus.size(), PathClass::Unknown));
  for (size_t g = 0; g < gpus.size(); ++g) {
    for (size_t n = 0; n < nics.size(); ++n)
      inv.gpu_nic[g][n] = classify_pci_path(t, gpus[g].objects.pci, nics[n].pci);
    for (size_t h = 0; h < gpus.size(); ++h)
      inv.gpu_gpu[g][h] = g == h ? PathClass::X : classify_pci_path(t, gpus[g].objects.pci, gpus[h].objects.pci);
  }

  if ((!gpus.empty() || !nics.empty()) && pci_bridges_missing(t)) {
    inv.pci_bridges_missing = true;
    inv.warnings.push_back(missing_bridges_warning(t));
  }
  read_gpu_links(t, gpu_objects, inv.gpus, inv.warnings);
  for (const Gpu& g : inv.gpus)
    if (g.slurm_type.empty())
      inv.warnings.push_back("GPU " + std::to_string(g.index) + " (" + g.pci_busid +
                             ") has no model name in the export: its gres Type is left empty");
  return inv;
}

namespace {

NodeInventory inventory_from_export(hwloc_topology_t topology, const std::string& path, const std::string& hostname) {
  std::string name = hostname;
  if (name.empty()) {
    const char* h = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology), "HostName");
    name = h && *h ? short_name(h) : std::filesystem::path(path).stem().string();
  }
  return inventory_from_topology(topology, name, path);
}

}  // namespace

NodeInventory load_node_xml(const std::string& path, const std::string& hostname) {
  HwlocTopology topology = load_hwloc_xml(path);
  return inventory_from_export(topology.get(), path, hostname);
}

std::vector<std::variant<NodeInventory, InputError>> load_node_xmls(const std::vector<std::string>& paths,
                                                                    unsigned parallel) {
  std::vector<std::variant<NodeInventory, InputError>> nodes(paths.size());
  load_hwloc_xml_files(
      paths, parallel,
      [](hwloc_topology_t t, const std::string& path) { return node_to_json(inventory_from_export(t, path, "")); },
      [&](size_t i, std::string json, std::optional<InputError> error) {
        if (error) {
          nodes[i] = std::move(*error);
          return;
        }
        // The JSON is our own writer's: a refusal here is a bug, not the export's fault.
        try {
          nodes[i] = node_from_json(json, paths[i]);
        } catch (const InputError& e) {
          throw std::logic_error(paths[i] + ": the node read from it does not read back from node JSON: " + e.what());
        }
      });
  return nodes;
}

NodeInventory discover_local_node() {
  HwlocTopology topology = load_hwloc_live();
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  NodeInventory inv = inventory_from_topology(topology.get(), short_name(buf), "live");
  // RealMemory must agree with slurmd -C on this machine: MemTotal, not hwloc's NUMA memory.
  if (const auto mib = local_memtotal_mib()) inv.memory_mib = *mib;
  return inv;
}

}  // namespace slurmtopo
