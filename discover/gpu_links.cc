#include "discover/gpu_links.h"

#include <algorithm>
#include <memory>

#include "discover/gpu_models.h"

namespace slurmtopo {
namespace {

struct DistancesRelease {
  hwloc_topology_t topology;
  void operator()(hwloc_distances_s* d) const { hwloc_distances_release(topology, d); }
};
using Distances = std::unique_ptr<hwloc_distances_s, DistancesRelease>;

// The first matrix of that name, or null.
Distances find_matrix(hwloc_topology_t topology, const char* name) {
  unsigned n = 1;
  hwloc_distances_s* d = nullptr;
  if (hwloc_distances_get_by_name(topology, name, &n, &d, 0) != 0 || n == 0 || !d)
    return Distances(nullptr, DistancesRelease{topology});
  return Distances(d, DistancesRelease{topology});
}

// The Slurm index of the GPU a matrix object stands for, or -1 (a CPU package, an NVSwitch).
int gpu_index_of(hwloc_obj_t obj, const std::vector<GpuObjects>& objects) {
  for (size_t i = 0; i < objects.size(); ++i)
    if (objects[i].partition == obj) return static_cast<int>(i);
  hwloc_obj_t pci = obj;
  if (obj->type == HWLOC_OBJ_OS_DEVICE) pci = obj->parent;
  for (size_t i = 0; i < objects.size(); ++i)
    if (objects[i].pci == pci && (!objects[i].partition || obj->type == HWLOC_OBJ_PCI_DEVICE))
      return static_cast<int>(i);
  return -1;
}

void start_rows(std::vector<Gpu>& gpus, size_t i) {
  if (!gpus[i].nvlinks.empty()) return;
  gpus[i].nvlinks.assign(gpus.size(), 0);
  gpus[i].nvlinks[i] = -1;
}

// More NVLinks than any GPU has (18 on H100, the node JSON allows 1024): a damaged matrix.
constexpr uint64_t kMaxLinks = 1024;

std::string too_many_links(uint64_t bw, uint64_t links, const std::string& between) {
  return "NVLink bandwidth " + std::to_string(bw) + " between " + between + " would be " + std::to_string(links) +
         " links, more than any GPU has (a damaged export?)";
}

// NVSwitch system: NVML reports no direct GPU-GPU link (so neither may gres.conf), but each
// GPU's links into the switches are what `nvidia-smi topo -m` prints between any two GPUs
// (NV6 on a DGX-2, NV18 on a DGX H100).
void read_nvswitch_links(const hwloc_distances_s& m, const std::vector<int>& index, std::vector<Gpu>& gpus,
                         std::vector<std::string>& warnings) {
  const unsigned n = m.nbobjs;
  for (unsigned k = 0; k < n; ++k) {
    const int i = index[k];
    if (i < 0) continue;
    uint64_t bw = 0;
    for (unsigned l = 0; l < n; ++l)
      if (index[l] < 0 && m.objs[l]->type == HWLOC_OBJ_PCI_DEVICE) bw += m.values[k * n + l];
    if (bw == 0) continue;
    const unsigned per_link = nvlink_link_bandwidth(gpus[i].slurm_type);
    if (per_link == 0) {
      warnings.push_back("NVLinkBandwidth matrix present, but the NVLink generation of " + gpus[i].model +
                         " (type " + gpus[i].slurm_type + ") is unknown: NVSwitch links not counted");
      return;
    }
    const uint64_t links = (bw + per_link / 2) / per_link;
    if (links > kMaxLinks) {
      warnings.push_back(too_many_links(bw, links, "GPU " + std::to_string(i) + " and its NVSwitches") +
                         ": NVSwitch links not counted");
      for (Gpu& g : gpus) g.nvswitch_links = 0;
      return;
    }
    gpus[i].nvswitch_links = static_cast<int>(links);
  }
}

void read_nvlink(hwloc_topology_t topology, const std::vector<GpuObjects>& objects,
                 std::vector<Gpu>& gpus, std::vector<std::string>& warnings) {
  const Distances m = find_matrix(topology, "NVLinkBandwidth");
  if (!m) return;
  const unsigned n = m->nbobjs;
  std::vector<int> index(n);
  for (unsigned k = 0; k < n; ++k) index[k] = gpu_index_of(m->objs[k], objects);

  bool direct = false, switched = false;
  for (unsigned k = 0; k < n; ++k) {
    for (unsigned l = 0; l < n; ++l) {
      if (k == l || m->values[k * n + l] == 0) continue;
      const bool gpu_k = index[k] >= 0, gpu_l = index[l] >= 0;
      // A non-GPU PCI peer is an NVSwitch (hwloc turns IBM's CPU-side peers into Packages).
      switched = switched || (gpu_k && !gpu_l && m->objs[l]->type == HWLOC_OBJ_PCI_DEVICE);
      direct = direct || (gpu_k && gpu_l);
    }
  }
  if (switched) return read_nvswitch_links(*m, index, gpus, warnings);
  if (!direct) return;

  std::vector<std::vector<int>> links(gpus.size(), std::vector<int>(gpus.size(), 0));
  bool rounded = false;
  for (unsigned k = 0; k < n; ++k) {
    for (unsigned l = 0; l < n; ++l) {
      const int i = index[k], j = index[l];
      const uint64_t bw = m->values[k * n + l];
      if (i < 0 || j < 0 || i == j || bw == 0) continue;
      const unsigned per_link = nvlink_link_bandwidth(gpus[i].slurm_type);
      if (per_link == 0) {
        warnings.push_back("NVLinkBandwidth matrix present, but the NVLink generation of " +
                           gpus[i].model + " (type " + gpus[i].slurm_type +
                           ") is unknown: no Links= derived");
        return;
      }
      if (bw % per_link != 0 && !rounded)
        rounded = true, warnings.push_back("NVLink bandwidth " + std::to_string(bw) + " between GPU " + std::to_string(i) +
                           " and GPU " + std::to_string(j) + " is not a multiple of " +
                           std::to_string(per_link) + " per link: rounded");
      const uint64_t count = (bw + per_link / 2) / per_link;
      if (count > kMaxLinks) {
        warnings.push_back(too_many_links(bw, count, "GPU " + std::to_string(i) + " and GPU " + std::to_string(j)) +
                           ": no Links= derived");
        return;
      }
      links[i][j] = std::max(links[i][j], static_cast<int>(count));
    }
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (gpus[i].vendor != "nvidia") continue;
    start_rows(gpus, i);
    for (size_t j = 0; j < gpus.size(); ++j)
      if (j != i) gpus[i].nvlinks[j] = links[i][j];
  }
}

void read_xgmi(hwloc_topology_t topology, const std::vector<GpuObjects>& objects,
               std::vector<Gpu>& gpus) {
  Distances m = find_matrix(topology, "XGMIHops");
  const bool hops = static_cast<bool>(m);
  if (!m) m = find_matrix(topology, "XGMIBandwidth");
  if (!m) return;
  const unsigned n = m->nbobjs;
  std::vector<int> index(n);
  for (unsigned k = 0; k < n; ++k) index[k] = gpu_index_of(m->objs[k], objects);
  for (unsigned k = 0; k < n; ++k) {
    for (unsigned l = 0; l < n; ++l) {
      const int i = index[k], j = index[l];
      if (i < 0 || j < 0 || i == j) continue;
      const uint64_t v = m->values[k * n + l];
      if (!(hops ? v == 1 : v > 0)) continue;
      start_rows(gpus, i);
      gpus[i].nvlinks[j] = 1;
    }
  }
  // A GPU of the hive with no link at all still gets its row, so Links= is complete.
  const bool any = std::any_of(gpus.begin(), gpus.end(), [](const Gpu& g) { return !g.nvlinks.empty(); });
  if (any)
    for (unsigned k = 0; k < n; ++k)
      if (index[k] >= 0) start_rows(gpus, static_cast<size_t>(index[k]));
}

}  // namespace

void read_gpu_links(hwloc_topology_t topology, const std::vector<GpuObjects>& objects,
                    std::vector<Gpu>& gpus, std::vector<std::string>& warnings) {
  read_nvlink(topology, objects, gpus, warnings);
  read_xgmi(topology, objects, gpus);
}

}  // namespace slurmtopo
