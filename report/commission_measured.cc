// The report's measured section: `simulate --measured`'s comparison (simulate/measured/) made
// with what the report already has: its cluster, its profile or its nodes, their findings.
#include "report/commission_parts.h"
#include "simulate/measured/measured_simulation.h"
#include "simulate/measured/probe_coverage.h"
#include "simulate/measured/probe_manifest.h"

namespace slurmtopo {

MeasuredSection plan_measured(const Cluster& cluster, const std::string& path, const std::string& profile,
                              const NodeSet* nodes, const NodeJoin* join, const NvlinkDomains* domains) {
  MeasuredSection out;
  out.source = path;
  out.routing = to_string(RoutingKind::MinHop);
  MeasuredComparison c = compare_measured(cluster, read_measured(path), profile, nodes, join, RoutingKind::MinHop, domains);
  out.profile = std::move(c.profile);
  out.runs = std::move(c.runs);
  out.warnings = std::move(c.warnings);
  if (const auto placements = read_probe_manifest(path)) out.probe_steps = probe_coverage(path, *placements, out.runs);
  return out;
}

}  // namespace slurmtopo
