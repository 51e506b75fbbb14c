#include "report/place_report.h"

#include <sstream>

#include "base/text.h"
namespace slurmtopo {

namespace {

// slurmctld counts tree levels from 0 at the leaves; the topology.conf slurmtopo writes says
// "# level 1: leaves". The admin reads the file, so a tree level is shown the way it numbers
// them. (A block level is the aggregation level, 0 = the base block, as BlockSizes lists.)
int topology_level(const SelectExplanation& x) {
  return x.algorithm.rfind("topology/tree", 0) == 0 ? x.top_level + 1 : x.top_level;
}

std::string explanation(const SelectResult& r) {
  const SelectExplanation& x = r.explanation;
  std::ostringstream out;
  if (!x.release.empty()) out << "slurm: " << x.release << "\n";
  out << "algorithm: " << x.algorithm << "\n";
  out << "available nodes: " << x.available_nodes << "\n";
  if (!x.top.empty())
    out << "top: " << x.top << (x.top_level >= 0 ? " (level " + std::to_string(topology_level(x)) + ")" : "") << "\n";
  if (!x.tiers.empty()) {
    out << "weight tiers:\n";
    for (const auto& t : x.tiers)
      out << "  weight " << t.weight << ": " << t.available << " available, " << t.used << " considered"
          << (t.forced ? ", all forced into the allocation" : "") << "\n";
  }
  if (!x.steps.empty()) {
    out << "order:\n";
    for (const auto& s : x.steps) {
      out << "  " << s.name;
      if (s.distance != kNoDistance) out << "  distance " << s.distance;
      out << "  free " << s.available << "  took " << s.taken;
      if (!s.why.empty()) out << "  (" << s.why << ")";
      out << "\n";
    }
  }
  for (const auto& note : x.notes) out << "note: " << note << "\n";
  if (r.started) out << "allocated: " << r.hostlist << " (" << counted(r.nodes.size(), "node", "nodes") << ")\n";
  else if (r.waiting_for_switches) out << "waiting: " << r.reason << "\n";
  else out << "cannot start: " << r.reason << "\n";
  return out.str();
}

}  // namespace

std::string prediction_line(const PlacePrediction& p) {
  const SizePrediction& s = p.size;
  std::string line = "predicted: allreduce " + format_size(s.bytes) + " busbw " + fixed_decimals(s.busbw_gbs, 1) +
                     " GB/s (" + to_string(s.algorithm) + "/" + to_string(s.protocol) + ", " + p.profile;
  if (p.nvlink_domains > 0)
    line += ", " + counted(static_cast<size_t>(p.nvlink_domains), "NVLink domain", "NVLink domains");
  line += ")";
  if (s.latency_bound) line += ", limited by latency";
  else if (!s.bottlenecks.empty()) line += ", limited by " + s.bottlenecks.front().resource;
  return line + "\n";
}

std::string place_report(const SelectResult& r, bool explain) {
  std::string out;
  if (r.started) out += r.hostlist + "\n";
  if (explain) out += explanation(r);
  return out;
}

int report_place(const PlaceResult& result, bool explain, std::ostream& out, std::ostream& err) {
  for (const auto& w : result.warnings) err << "warning: " << w << "\n";
  out << place_report(result.select, explain);
  if (result.predicted) {
    // stdout stays the hostlist alone unless --explain asked for more.
    for (const auto& w : result.predicted->warnings) err << "warning: " << w << "\n";
    (explain ? out : err) << prediction_line(*result.predicted);
  }
  if (result.select.started) return 0;
  if (result.never)
    err << "slurmtopo: the job can never start: " << result.never_reason
        << "; slurmctld refuses it when it is submitted (\"" << result.refusal << "\")\n";
  else
    err << "slurmtopo: the job cannot start now: " << result.select.reason << "\n";
  return kCannotStartExit;
}

}  // namespace slurmtopo
