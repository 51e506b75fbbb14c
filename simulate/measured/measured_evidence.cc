#include "simulate/measured/measured_evidence.h"

#include <optional>

#include "graph/node_join.h"
#include "simulate/collective/node_profile.h"

namespace slurmtopo {

MeasuredEvidence weigh_measured(const Cluster& cluster, std::vector<MeasuredRun> runs, const NodeSet* nodes) {
  MeasuredEvidence out;
  const FabricModel fabric(cluster, RoutingKind::MinHop);
  MeasuredContext ctx;
  ctx.fabric = &fabric;
  std::optional<NodeJoin> join;
  std::optional<NodeProfile> from_nodes;
  if (nodes && !nodes->nodes.empty()) {
    join = join_nodes(*nodes, &cluster);
    ctx.nodes = nodes;
    ctx.node_findings = &join->anomalies;
    // Only its GPU → HCA map: the profile is never predicted with here.
    from_nodes = profile_from_nodes_or_warn(*nodes, *join, cluster, out.warnings, "no GPU -> HCA map: ");
    if (from_nodes) ctx.gpu_nics = &from_nodes->gpu_nics;
  }
  for (const MeasuredRun& run : runs) out.weighed.push_back(compare_run(run, ctx));
  out.findings = measured_findings(out.weighed);
  out.runs = std::move(runs);
  return out;
}

}  // namespace slurmtopo
