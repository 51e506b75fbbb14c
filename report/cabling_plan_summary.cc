#include "report/cabling_plan_summary.h"

#include "base/text.h"

namespace slurmtopo {

std::string plan_summary_line(const PlanSummary& s) {
  std::string out = "cabling plan (" + s.source + "): " + std::to_string(s.present) + " of " +
                    counted(s.planned, "planned cable", "planned cables") + " as planned; " +
                    counted(s.fabric_cables, "cable", "cables") + " in the fabric; " +
                    counted(s.findings, "finding", "findings");
  if (s.merged)
    out += " (in place of " + counted(s.merged, "finding", "findings") + " of other checks about the same cables)";
  return out;
}

void add_plans_json(nlohmann::ordered_json& j, const std::vector<PlanSummary>& plans) {
  using json = nlohmann::ordered_json;
  j["plans"] = json::array();
  for (const PlanSummary& s : plans) {
    json switches = json::array();
    for (const PlanSwitchTally& t : s.switches)
      switches.push_back({{"name", t.name}, {"planned", t.planned}, {"present", t.present}, {"findings", t.findings}});
    j["plans"].push_back({{"source", s.source}, {"planned", s.planned}, {"present", s.present},
                          {"fabric_cables", s.fabric_cables}, {"findings", s.findings}, {"merged", s.merged},
                          {"switches", std::move(switches)}});
  }
}

}  // namespace slurmtopo
