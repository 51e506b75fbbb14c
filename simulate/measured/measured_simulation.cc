#include "simulate/measured/measured_simulation.h"

#include <algorithm>
#include <optional>

#include "base/input_error.h"
#include "discover/node_set.h"
#include "simulate/collective/node_profile.h"

namespace slurmtopo {

MeasuredResult run_measured(const MeasuredRequest& r) {
  if (r.profile.empty() == r.nodes_dir.empty())
    throw InputError("--measured", 0, "expected either --profile (a shipped name or a YAML file) or --nodes-dir");
  // Every input is read before anything is predicted: a bad one stops at once.
  const std::vector<MeasuredRun> runs = read_measured(r.measured);
  const Cluster cluster = load_cluster(r.inputs);
  const FabricModel fabric(cluster, r.routing);
  MeasuredResult out;
  HardwareProfile profile;
  std::optional<NodeSet> nodes;
  std::optional<NodeJoin> join;
  NodeProfile from_nodes;
  if (!r.profile.empty()) {
    profile = load_profile(r.profile);
  } else {
    NodeSources sources;
    sources.nodes_dir = r.nodes_dir;
    for (const MeasuredRun& run : runs) sources.expected_hosts.insert(sources.expected_hosts.end(), run.hosts.begin(), run.hosts.end());
    std::sort(sources.expected_hosts.begin(), sources.expected_hosts.end());
    sources.expected_hosts.erase(std::unique(sources.expected_hosts.begin(), sources.expected_hosts.end()),
                                 sources.expected_hosts.end());
    nodes = load_node_set(sources);
    join = join_nodes(*nodes, &cluster);
    from_nodes = profile_from_nodes(*nodes, *join, cluster);
    profile = from_nodes.profile;
    out.warnings = from_nodes.warnings;
  }
  out.profile = profile.name;
  MeasuredContext ctx;
  ctx.fabric = &fabric;
  ctx.profile = &profile;
  ctx.routing = r.routing;
  if (nodes) {
    ctx.nodes = &*nodes;
    ctx.gpu_nics = &from_nodes.gpu_nics;
    ctx.node_findings = &join->anomalies;
  }
  for (const MeasuredRun& run : runs) out.runs.push_back(compare_run(run, ctx));
  out.findings = measured_findings(out.runs);
  return out;
}

}  // namespace slurmtopo
