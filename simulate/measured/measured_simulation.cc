#include "simulate/measured/measured_simulation.h"

#include <algorithm>
#include <optional>

#include "base/input_error.h"
#include "simulate/collective/node_profile.h"

namespace slurmtopo {

MeasuredComparison compare_measured(const Cluster& cluster, const std::vector<MeasuredRun>& runs,
                                    const std::string& profile_name, const NodeSet* nodes, const NodeJoin* join,
                                    RoutingKind routing, const NvlinkDomains* domains) {
  MeasuredComparison out;
  const FabricModel fabric(cluster, routing);
  HostDomains host_domain;
  if (domains) host_domain = host_domains(*domains);
  std::optional<HardwareProfile> profile;
  std::optional<NodeProfile> from_nodes;
  MeasuredContext ctx;
  ctx.fabric = &fabric;
  ctx.routing = routing;
  if (domains) ctx.nvlink_domains = &host_domain;
  if (!profile_name.empty()) {
    profile = load_profile(profile_name);
  } else if (nodes && join && !nodes->nodes.empty()) {
    from_nodes = profile_from_nodes_or_warn(*nodes, *join, cluster, out.warnings, "no prediction: ");
    if (from_nodes) {
      profile = from_nodes->profile;
      ctx.gpu_nics = &from_nodes->gpu_nics;
    }
  }
  if (nodes && join) {
    ctx.nodes = nodes;
    ctx.node_findings = &join->anomalies;
  }
  if (profile) {
    ctx.profile = &*profile;
    out.profile = profile->name;
  }
  for (const MeasuredRun& run : runs) out.runs.push_back(compare_run(run, ctx));
  return out;
}

MeasuredResult run_measured(const MeasuredRequest& r) {
  if (r.profile.empty() == r.nodes_dir.empty())
    throw InputError("--measured", 0, "expected either --profile (a shipped name or a YAML file) or --nodes-dir");
  // Every input is read before anything is predicted: a bad one stops at once.
  const std::vector<MeasuredRun> runs = read_measured(r.measured);
  const Cluster cluster = load_cluster(r.inputs);
  std::optional<NodeSet> nodes;
  std::optional<NodeJoin> join;
  if (!r.nodes_dir.empty()) {
    // Only the runs' hosts: each must have its export.
    NodeSources sources;
    sources.nodes_dir = r.nodes_dir;
    for (const MeasuredRun& run : runs) sources.expected_hosts.insert(sources.expected_hosts.end(), run.hosts.begin(), run.hosts.end());
    std::sort(sources.expected_hosts.begin(), sources.expected_hosts.end());
    sources.expected_hosts.erase(std::unique(sources.expected_hosts.begin(), sources.expected_hosts.end()),
                                 sources.expected_hosts.end());
    nodes = load_node_set(sources);
    join = join_nodes(*nodes, &cluster);
  }
  std::optional<NvlinkDomains> domains;
  if (!r.nvlink_domains.empty()) domains = load_nvlink_domains(r.nvlink_domains);
  MeasuredResult out;
  out.comparison = compare_measured(cluster, runs, r.profile, nodes ? &*nodes : nullptr, join ? &*join : nullptr, r.routing,
                                    domains ? &*domains : nullptr);
  // Asked for by --nodes-dir, a profile the nodes cannot give is an input error, not a warning.
  if (out.comparison.profile.empty())
    throw InputError(r.nodes_dir, 0,
                     out.comparison.warnings.empty() ? "expected node exports with GPUs" : out.comparison.warnings.back());
  out.findings = measured_findings(out.comparison.runs);
  return out;
}

}  // namespace slurmtopo
