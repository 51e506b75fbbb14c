#include "simulate/collective/placement.h"

#include <algorithm>
#include <map>

#include "base/input_error.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

Placement resolve_placement(const Cluster& cluster, const std::vector<std::string>& hosts,
                            const HardwareProfile& profile, const GpuNics* gpu_nics) {
  Placement p;
  const int rails = std::max(1, profile.nics_per_node);
  const int gpus = std::max(1, profile.gpus_per_node);
  p.home_gpu.resize(rails);
  for (int k = 0; k < rails; ++k) p.home_gpu[k] = k * gpus / rails;
  bool homes_from_nodes = false;

  std::vector<bool> seen(cluster.hosts.size(), false);
  std::map<size_t, std::vector<std::string>> short_of_rails;  // HCA count → hosts
  for (const std::string& name : hosts) {
    const int h = cluster.host_index(name);
    if (h < 0) throw InputError("--nodes", 0, "expected hosts of the fabric; `" + name + "` is not in it");
    if (seen[h]) throw InputError("--nodes", 0, "expected every host once; `" + name + "` is named twice");
    seen[h] = true;
    p.hosts.push_back(h);

    // The HCAs this host's rails use: from its PCIe layout when known, else in rail order.
    std::vector<int> hcas;
    std::vector<int> first_gpu;
    const std::vector<int>* layout = nullptr;
    const std::vector<PcieShare>* limit = nullptr;
    if (gpu_nics)
      for (size_t i = 0; i < gpu_nics->hosts.size(); ++i)
        if (gpu_nics->hosts[i] == name) {
          layout = &gpu_nics->gpu_hca[i];
          if (i < gpu_nics->gpu_limit.size() && gpu_nics->gpu_limit[i].size() == layout->size())
            limit = &gpu_nics->gpu_limit[i];
        }
    if (layout) {
      for (int g = 0; g < static_cast<int>(layout->size()); ++g) {
        const int hca = (*layout)[g];
        if (hca >= 0 && std::find(hcas.begin(), hcas.end(), hca) == hcas.end()) {
          hcas.push_back(hca);
          first_gpu.push_back(g);
        }
      }
    }
    if (hcas.empty()) hcas = cluster.hosts[h].hcas;
    else if (!homes_from_nodes) {
      for (int k = 0; k < rails && k < static_cast<int>(first_gpu.size()); ++k) p.home_gpu[k] = first_gpu[k];
      homes_from_nodes = true;
    }

    std::vector<int> used(rails, -1);
    if (!hcas.empty()) {
      for (int k = 0; k < rails; ++k) used[k] = hcas[k % hcas.size()];
      if (static_cast<int>(hcas.size()) < rails && hosts.size() > 1)  // one node uses no NIC
        short_of_rails[hcas.size()].push_back(name);
    } else if (hosts.size() > 1) {
      throw InputError("--nodes", 0, "expected every host to have an HCA in the fabric; `" + name + "` has none");
    }
    // A rail keeps the least PCIe share of the GPUs that send through its HCA.
    std::vector<PcieShare> kept(rails);
    bool any = false;
    if (limit)
      for (int k = 0; k < rails; ++k)
        for (size_t g = 0; g < layout->size(); ++g)
          if ((*layout)[g] == used[k] && used[k] >= 0 && (*limit)[g].share < kept[k].share) {
            kept[k] = (*limit)[g];
            any = true;
          }
    if (any) {
      if (p.limits.empty()) p.limits.assign(p.hosts.size() - 1, std::vector<PcieShare>(rails));
      for (int k = 0; k < rails; ++k)
        if (kept[k].share < 1 && (k == 0 || kept[k].why != kept[k - 1].why))
          p.warnings.push_back(name + ": " + kept[k].why + ": its traffic to other nodes through " +
                               cluster.hcas[used[k]].rail + " is predicted at " +
                               std::to_string(static_cast<int>(kept[k].share * 100 + 0.5)) +
                               " % of the PCIe figure (node probe)");
    }
    if (any || !p.limits.empty()) p.limits.push_back(std::move(kept));
    p.rails.push_back(std::move(used));
  }
  for (const auto& [count, names] : short_of_rails)
    p.warnings.push_back(compress_hostlist(names) + ": " + std::to_string(count) + " HCA" + (count == 1 ? "" : "s") +
                         " for the profile's " + std::to_string(rails) + " NICs; rails share them");
  return p;
}

}  // namespace slurmtopo
