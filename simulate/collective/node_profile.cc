#include "simulate/collective/node_profile.h"

#include "base/input_error.h"
#include "graph/node_health.h"

namespace slurmtopo {

namespace {

LinkSpeed fabric_nic_speed(const Cluster& cluster, const std::string& host) {
  const int h = cluster.host_index(host);
  if (h < 0 || cluster.hosts[h].hcas.empty()) return LinkSpeed::Unknown;
  const Hca& hca = cluster.hcas[cluster.hosts[h].hcas.front()];
  for (const Link& l : cluster.fabrics[hca.fabric].links)
    if (l.a.guid == hca.guid || l.b.guid == hca.guid) return l.speed;
  return LinkSpeed::Unknown;
}

}  // namespace

NodeProfile profile_from_nodes(const NodeSet& set, const NodeJoin& join, const Cluster& cluster) {
  const NodeInventory& first = set.nodes[set.classes.empty() ? 0 : set.classes.front().representative];
  NodeProfile p;
  p.profile = profile_for_node(first, fabric_nic_speed(cluster, first.hostname));
  if (set.classes.size() > 1)
    p.warnings.push_back("the hosts differ in hardware (" + std::to_string(set.classes.size()) +
                         " node classes); every host is simulated as " + first.hostname);
  for (const HostJoin& hj : join.hosts) {
    p.gpu_nics.hosts.push_back(set.nodes[hj.node].hostname);
    std::vector<int> per_gpu;
    for (const GpuPath& g : hj.gpus) per_gpu.push_back(g.hca);
    p.gpu_nics.gpu_hca.push_back(std::move(per_gpu));
    // What the node probe found of each GPU's PCIe path (x8, a NIC at Gen4): the prediction
    // takes it, with the reason.
    p.gpu_nics.gpu_limit.push_back(gpu_pcie_shares(set.nodes[hj.node], hj));
  }
  return p;
}

std::optional<NodeProfile> profile_from_nodes_or_warn(const NodeSet& set, const NodeJoin& join, const Cluster& cluster,
                                                      std::vector<std::string>& warnings, const std::string& prefix) {
  try {
    NodeProfile out = profile_from_nodes(set, join, cluster);
    warnings.insert(warnings.end(), out.warnings.begin(), out.warnings.end());
    return out;
  } catch (const InputError& e) {
    warnings.push_back(prefix + e.what());
    return std::nullopt;
  }
}

}  // namespace slurmtopo
