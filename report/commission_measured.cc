// The report's measured section: `simulate --measured`'s comparison (simulate/measured/) made
// with what the report already has — its cluster, its profile or its nodes, their findings.
#include <optional>

#include "base/input_error.h"
#include "report/commission_parts.h"
#include "simulate/collective/node_profile.h"
#include "simulate/network/fabric_model.h"

namespace slurmtopo {

MeasuredSection plan_measured(const Cluster& cluster, const std::string& path, const std::string& profile_name,
                              const NodeSet* nodes, const NodeJoin* join) {
  MeasuredSection out;
  out.source = path;
  const std::vector<MeasuredRun> runs = read_measured(path);
  const FabricModel fabric(cluster, RoutingKind::MinHop);
  out.routing = to_string(RoutingKind::MinHop);
  std::optional<HardwareProfile> profile;
  NodeProfile from_nodes;
  MeasuredContext ctx;
  ctx.fabric = &fabric;
  if (!profile_name.empty()) {
    profile = load_profile(profile_name);
  } else if (nodes && join && !nodes->nodes.empty()) {
    try {
      from_nodes = profile_from_nodes(*nodes, *join, cluster);
      profile = from_nodes.profile;
      ctx.gpu_nics = &from_nodes.gpu_nics;
      out.warnings = from_nodes.warnings;
    } catch (const InputError& e) {
      out.warnings.push_back(std::string("no prediction: ") + e.what());
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

}  // namespace slurmtopo
