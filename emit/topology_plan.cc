#include "emit/topology_plan.h"

#include <algorithm>
#include <set>

#include "base/text.h"
#include "emit/topology_conf.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
std::string describe(const Fabric& f) {
  int switches = 0, cas = 0;
  for (const auto& n : f.nodes) (n.kind == NodeKind::Switch ? switches : cas) += n.kind != NodeKind::Router;
  return "fabric " + f.name + ": " + f.source + " (" + counted(switches, "switch", "switches") + ", " +
         counted(cas, "CA", "CAs") + ", " + counted(f.links.size(), "cable", "cables") + ")";
}
}  // namespace

TopologyPlan plan_topology(const Cluster& cluster, const TopologyRequest& request) {
  TopologyPlan plan;
  plan.tree = build_slurm_tree(cluster);
  std::vector<std::string> hosts, compute;
  for (const auto& h : cluster.hosts)
    if (h.group >= 0) {
      hosts.push_back(h.name);  // already in natural order
      if (h.storage) plan.storage_left_out.push_back(h.name);
      else compute.push_back(h.name);
    }
  if (!request.slurm_nodes && !plan.storage_left_out.empty()) {
    // Storage hosts are placed only when Slurm's node list names them.
    plan.tree = restrict_to_nodes(plan.tree, compute);
  } else {
    plan.storage_left_out.clear();
  }
  if (request.slurm_nodes) {
    std::vector<std::string> slurm = *request.slurm_nodes;
    std::sort(slurm.begin(), slurm.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
    slurm.erase(std::unique(slurm.begin(), slurm.end()), slurm.end());
    auto less = [](const auto& a, const auto& b) { return natural_less(a, b); };
    std::set_difference(slurm.begin(), slurm.end(), hosts.begin(), hosts.end(),
                        std::back_inserter(plan.in_slurm_not_fabric), less);
    std::set_difference(hosts.begin(), hosts.end(), slurm.begin(), slurm.end(),
                        std::back_inserter(plan.in_fabric_not_slurm), less);
    plan.tree = restrict_to_nodes(plan.tree, slurm);
  }
  TopologyHeader header;
  header.command = request.command;
  for (const auto& f : cluster.fabrics) header.sources.push_back(describe(f));
  plan.text = render_topology_conf(plan.tree, header);

  TopologyCheckOptions options;
  if (request.slurm_nodes) {
    options.slurm_nodes = *request.slurm_nodes;
    std::sort(options.slurm_nodes->begin(), options.slurm_nodes->end(),
              [](const auto& a, const auto& b) { return natural_less(a, b); });
  }
  // One root per separate fabric (or unjoined part of a partial sweep) is intended.
  std::set<int> components;
  for (const auto& g : cluster.groups) components.insert(g.component);
  options.expected_roots = static_cast<int>(components.size());
  plan.check = check_topology(parse_topology_conf(plan.text, "topology.conf"), options);
  if (cluster.hosts.empty()) {
    // The usual cause of an empty file: HCAs with factory descriptions, no name map given.
    int unresolved = 0;
    for (const auto& h : cluster.hcas) unresolved += !h.unresolved.empty();
    if (unresolved)
      plan.check.errors.insert(plan.check.errors.begin(),
                               {0, "no HCA has a usable host name (" + std::to_string(unresolved) +
                                       " unresolved): give --node-name-map FILE, or host_regex in --config"});
  }
  return plan;
}

}  // namespace slurmtopo
