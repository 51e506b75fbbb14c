#include "simulate/collective/simulation.h"

#include <algorithm>
#include <memory>

#include "base/input_error.h"
#include "discover/node_set.h"
#include "graph/node_join.h"
#include "simulate/collective/node_profile.h"
#include "simulate/collective/nvlink_domain.h"
#include "simulate/network/fabric_model.h"
#include "simulate/network/forwarding_tables.h"

namespace slurmtopo {

namespace {

// From node exports: the profile of the hosts' hardware and each one's GPU → HCA layout.
NodeProfile node_data(const std::string& nodes_dir, const Cluster& cluster, const std::vector<std::string>& hosts) {
  NodeSources sources;
  sources.nodes_dir = nodes_dir;
  sources.expected_hosts = hosts;
  const NodeSet set = load_node_set(sources);
  return profile_from_nodes(set, join_nodes(set, &cluster), cluster);
}

}  // namespace

SimulationResult run_simulation(const SimulationRequest& r) {
  if (r.profile.empty() == r.nodes_dir.empty())
    throw InputError("simulate", 0, "expected either --profile (a shipped name or a YAML file) or --nodes-dir");
  if (!r.lft.empty() && r.options.routing != RoutingKind::Lft)
    throw InputError("--lft", 0, "expected --routing lft with forwarding tables to walk");
  Cluster cluster = load_cluster(r.inputs);
  std::unique_ptr<Routing> routing;
  if (r.options.routing == RoutingKind::Lft && !r.lft.empty())
    routing = make_lft_routing(cluster, read_forwarding_tables_file(r.lft));
  else
    routing = make_routing(cluster, r.options.routing);
  const FabricModel fabric(cluster, std::move(routing));

  SimulationResult out;
  SimulateOptions options = r.options;
  if (!r.busy_jobs.empty()) {
    options.busy_jobs = read_busy_jobs(r.busy_jobs);
    options.busy_source = r.busy_jobs;
  }
  HostDomains domains;
  if (!r.nvlink_domains.empty()) {
    domains = load_host_domains(r.nvlink_domains);
    options.nvlink_domains = &domains;
  }
  NodeProfile nodes;
  if (!r.profile.empty()) {
    out.profile = load_profile(r.profile);
  } else {
    std::vector<std::string> all = r.hosts;
    all.insert(all.end(), r.compare.begin(), r.compare.end());
    for (const BusyJob& j : options.busy_jobs) all.insert(all.end(), j.hosts.begin(), j.hosts.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    nodes = node_data(r.nodes_dir, cluster, all);
    out.profile = nodes.profile;
    options.gpu_nics = &nodes.gpu_nics;
  }
  out.placement = predict(fabric, r.hosts, out.profile, options);
  out.placement.warnings.insert(out.placement.warnings.end(), nodes.warnings.begin(), nodes.warnings.end());
  if (!r.compare.empty()) out.compared = predict(fabric, r.compare, out.profile, options);
  return out;
}

}  // namespace slurmtopo
