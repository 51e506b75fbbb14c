// The performance section's model: simulate's predict() (simulate/collective/prediction.h)
// for allreduce over one node, one group and every grouped host, and the same job size packed
// on one group against spread one host per group. The physical limit drawn with each curve is
// the profile's line rate the busbw of that placement cannot exceed: NVLink (or PCIe) inside
// one node, and across nodes the NIC line rate per GPU when that is lower.
#include <algorithm>
#include <unordered_set>

#include "base/input_error.h"
#include "report/commission_parts.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/prediction.h"
#include "simulate/network/fabric_model.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// hwloc does not know a NIC's speed: the fabric's cable from the host's first HCA says it.
LinkSpeed nic_speed(const Cluster& c, const std::string& host) {
  const int h = c.host_index(host);
  if (h < 0 || c.hosts[h].hcas.empty()) return LinkSpeed::Unknown;
  const Hca& hca = c.hcas[c.hosts[h].hcas.front()];
  for (const Link& l : c.fabrics[hca.fabric].links)
    if (l.a.guid == hca.guid || l.b.guid == hca.guid) return l.speed;
  return LinkSpeed::Unknown;
}

std::vector<double> chart_sizes() {
  std::vector<double> s;
  for (double b = 1024; b <= 8589934592.0; b *= 4) s.push_back(b);
  s.push_back(8589934592.0);
  return s;
}

// docs/simulator.md's physical limits: a ring's busbw within a node stays under a GPU's NVLink
// (or PCIe) line rate; NVLS moves (1 + 1/G)·algbw through a port, so its busbw limit is the
// line rate × 2(G−1)/(G+1); across nodes busbw stays under the node's NICs' line rates.
std::pair<double, std::string> limit(const HardwareProfile& p, int nodes) {
  const int g = std::max(p.gpus_per_node, 1);
  double inside = p.nvlink_links > 0 ? p.nvlink_line_gbs() : p.pcie_line_gbs();
  std::string inside_what = p.nvlink_links > 0 ? "NVLink line rate" : "PCIe line rate";
  if (p.nvls && g > 1) {
    inside *= 2.0 * (g - 1) / (g + 1);
    inside_what = "NVLink line rate through NVLS";
  }
  if (nodes <= 1) return {inside, inside_what};
  const double nic = p.nic_line_gbs() * p.nics_per_node;
  return nic < inside ? std::pair{nic, std::string("the node's NICs' line rate")} : std::pair{inside, inside_what};
}

}  // namespace

std::optional<Performance> plan_performance(const Cluster& c, const std::string& profile_name, const NodeSet* nodes,
                                            const NodeJoin* join, const std::vector<Finding>& findings) {
  std::unordered_set<std::string> named;
  for (const Finding& f : findings)
    for (auto& n : finding_names(f.subject)) named.insert(std::move(n));
  std::vector<std::string> grouped;
  int left_out = 0;
  for (const Host& h : c.hosts) {
    if (h.group < 0) continue;
    if (named.count(h.name)) ++left_out;
    else grouped.push_back(h.name);
  }
  if (grouped.empty() || (profile_name.empty() && (!nodes || nodes->nodes.empty()))) return std::nullopt;

  Performance perf;
  HardwareProfile profile;
  GpuNics gpu_nics;
  SimulateOptions options;
  options.sizes = chart_sizes();
  if (!profile_name.empty()) {
    profile = load_profile(profile_name);
  } else {
    const NodeInventory& first = nodes->nodes[nodes->classes.front().representative];
    try {
      profile = profile_for_node(first, nic_speed(c, first.hostname));
    } catch (const InputError& e) {
      perf.warnings.push_back(std::string("no prediction: ") + e.what());
      return perf;
    }
    if (nodes->classes.size() > 1)
      perf.warnings.push_back("the hosts differ in hardware (" + std::to_string(nodes->classes.size()) +
                              " node classes); every host is simulated as " + first.hostname);
    for (const HostJoin& hj : join->hosts) {
      gpu_nics.hosts.push_back(nodes->nodes[hj.node].hostname);
      std::vector<int> per_gpu;
      for (const GpuPath& g : hj.gpus) per_gpu.push_back(g.hca);
      gpu_nics.gpu_hca.push_back(std::move(per_gpu));
    }
    options.gpu_nics = &gpu_nics;
  }
  perf.profile = profile.name;
  const FabricModel fabric(c, options.routing);
  perf.routing = to_string(options.routing);

  auto curve = [&](const std::string& name, const std::vector<std::string>& hosts) {
    try {
      const Prediction p = predict(fabric, hosts, profile, options);
      Curve k;
      k.name = name;
      k.nodes = static_cast<int>(hosts.size());
      std::tie(k.limit_gbs, k.limit_what) = limit(profile, k.nodes);
      for (const auto& s : p.sizes) k.bytes.push_back(s.bytes), k.busbw_gbs.push_back(s.busbw_gbs);
      perf.curves.push_back(std::move(k));
      for (const auto& w : p.warnings) perf.warnings.push_back(name + ": " + w);
    } catch (const InputError& e) {
      perf.warnings.push_back(name + ": no prediction: " + e.what());
    }
  };
  if (left_out)
    perf.warnings.push_back(std::to_string(left_out) + (left_out == 1 ? " host" : " hosts") +
                            " named by a finding left out of every prediction");
  // Per group, its hosts without findings, in Slurm's order.
  std::vector<std::vector<std::string>> healthy(c.groups.size());
  for (size_t k = 0; k < c.groups.size(); ++k)
    for (int h : c.groups[k].hosts)
      if (!named.count(c.hosts[h].name)) healthy[k].push_back(c.hosts[h].name);
  curve("one node (" + grouped.front() + ")", {grouped.front()});
  size_t first = 0;  // the first group with two healthy hosts
  while (first < healthy.size() && healthy[first].size() < 2) ++first;
  std::vector<std::string> group_hosts = first < healthy.size() ? healthy[first] : std::vector<std::string>{};
  if (!group_hosts.empty())
    curve("one group (" + c.groups[first].name + ", " + std::to_string(group_hosts.size()) + " nodes)", group_hosts);
  if (c.groups.size() > 1) curve("whole fabric (" + std::to_string(grouped.size()) + " nodes)", grouped);

  // Packed on one group against spread one host per group, as many nodes as both allow.
  std::vector<std::string> spread;
  for (const auto& hosts : healthy)
    if (!hosts.empty()) spread.push_back(hosts.front());
  const size_t n = std::min(group_hosts.size(), spread.size());
  if (n >= 2) {
    std::vector<std::string> packed(group_hosts.begin(), group_hosts.begin() + n);
    spread.resize(n);
    SimulateOptions one = options;
    one.sizes = {1073741824.0};
    try {
      const Prediction a = predict(fabric, packed, profile, one), b = predict(fabric, spread, profile, one);
      SpreadPacked sp;
      sp.nodes = static_cast<int>(n);
      sp.packed = compress_hostlist(packed);
      sp.spread = compress_hostlist(spread);
      sp.bytes = one.sizes.front();
      sp.packed_busbw = a.sizes.front().busbw_gbs;
      sp.spread_busbw = b.sizes.front().busbw_gbs;
      sp.spread_groups = static_cast<int>(n);
      perf.spread_packed = sp;
    } catch (const InputError& e) {
      perf.warnings.push_back(std::string("spread against packed: no prediction: ") + e.what());
    }
  }
  return perf;
}

}  // namespace slurmtopo
