#include "simulate/collective/nvlink_domain.h"

#include <algorithm>
#include <map>

#include "slurm/hostlist.h"

namespace slurmtopo {

HostDomains host_domains(const NvlinkDomains& domains) {
  HostDomains out;
  out.source = domains.source;
  for (const HostFabric& h : domains.hosts) {
    const std::vector<std::string> seen = h.domains();
    if (seen.size() == 1 && !seen.front().empty()) out.of[h.host] = seen.front();
  }
  return out;
}

HostDomains load_host_domains(const std::string& path) { return host_domains(load_nvlink_domains(path)); }

std::vector<DomainGroup> group_by_domain(const std::vector<std::string>& hosts, const HostDomains& domains) {
  std::vector<DomainGroup> groups;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < hosts.size(); ++i) {
    const std::string* d = domains.find(hosts[i]);
    if (!d) {
      groups.push_back({{static_cast<int>(i)}, false});
      continue;
    }
    const auto [it, fresh] = index.emplace(*d, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].hosts.push_back(static_cast<int>(i));
  }
  return groups;
}

DomainView fuse_nvlink_domains(const std::vector<std::string>& hosts, const Placement& per_host,
                               const HardwareProfile& profile, const HostDomains& domains, int rails) {
  DomainView v;
  // Domains in the order the ranks first reach them; a host without one is its own.
  std::vector<std::vector<int>> members;  // per domain: indices into `hosts`
  std::vector<std::string> outside;
  for (DomainGroup& g : group_by_domain(hosts, domains)) {
    if (!g.known) outside.push_back(hosts[g.hosts.front()]);
    members.push_back(std::move(g.hosts));
  }
  if (!outside.empty())
    v.warnings.push_back(compress_hostlist(outside) + ": in no NVLink domain of " + domains.source + "; " +
                         (outside.size() == 1 ? "runs" : "each runs") + " as a domain of its own, over the network only");

  const int per_tray_gpus = std::max(1, profile.gpus_per_node);
  const int per_tray_rails = static_cast<int>(per_host.home_gpu.size());  // resolve_placement's rails per host
  size_t largest = 0, smallest = hosts.size();
  for (const auto& m : members) {
    largest = std::max(largest, m.size());
    smallest = std::min(smallest, m.size());
  }
  if (largest > static_cast<size_t>(profile.nvlink_domain_nodes))
    v.warnings.push_back("an NVLink domain of " + domains.source + " holds " + std::to_string(largest) +
                         " of the placement's nodes, more than the " + std::to_string(profile.nvlink_domain_nodes) +
                         " of a " + profile.name + " domain; predicted as it is");
  if (members.size() > 1 && smallest < largest)
    v.warnings.push_back("the placement has " + std::to_string(smallest) + " to " + std::to_string(largest) +
                         " nodes in each NVLink domain; predicted as " + std::to_string(largest) +
                         " in each (NCCL's rings and trees pass every GPU of the largest)");

  // NCCL's node: a domain's GPUs, and the NICs its channels leave through between domains.
  v.profile = profile;
  v.profile.gpus_per_node = static_cast<int>(largest) * per_tray_gpus;
  v.profile.node_spans = static_cast<int>(largest);
  if (rails <= 0) {
    rails = static_cast<int>(smallest) * per_tray_rails;
    if (profile.nvlink_domain_nics > 0) rails = std::min(rails, profile.nvlink_domain_nics);
  }
  v.profile.nics_per_node = std::max(1, rails);

  Placement& p = v.placement;
  p.warnings = per_host.warnings;
  p.home_gpu.resize(v.profile.nics_per_node);
  for (int k = 0; k < v.profile.nics_per_node; ++k) {
    const int tray = (k / per_tray_rails) % static_cast<int>(largest);
    p.home_gpu[k] = tray * per_tray_gpus + per_host.home_gpu[k % per_tray_rails];
  }
  for (const auto& m : members) {
    p.hosts.push_back(per_host.hosts[m.front()]);
    // GPU-first: tray t's NICs in its rail order, tray after tray, as many as the domain uses.
    std::vector<int> hcas;
    std::vector<PcieShare> kept;
    for (int i : m)
      for (int k = 0; k < per_tray_rails; ++k) {
        hcas.push_back(per_host.rails[i][k]);
        if (!per_host.limits.empty()) kept.push_back(per_host.limits[i][k]);
      }
    std::vector<int> used(v.profile.nics_per_node);
    std::vector<PcieShare> used_limits;
    for (int k = 0; k < v.profile.nics_per_node; ++k) {
      used[k] = hcas[k % hcas.size()];
      if (!kept.empty()) used_limits.push_back(kept[k % kept.size()]);
    }
    p.rails.push_back(std::move(used));
    if (!per_host.limits.empty()) p.limits.push_back(std::move(used_limits));
    std::vector<std::string> domain_hosts;
    for (int i : m) domain_hosts.push_back(hosts[i]);
    v.hosts.push_back(std::move(domain_hosts));
  }
  // Bottlenecks inside a domain name the tray and its GPU (the largest domain's).
  const auto& named = *std::max_element(members.begin(), members.end(),
                                        [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (int i : named)
    for (int g = 0; g < per_tray_gpus; ++g) p.gpu_names.push_back(hosts[i] + " GPU" + std::to_string(g));
  return v;
}

}  // namespace slurmtopo
