// A cabling plan's comparison (--plan, graph/plan_check.h) as every output gives it — inspect's
// text and JSON, the report's Markdown, page and JSON — from one place so they cannot drift:
//   the line:  "cabling plan (F): 250 of 252 planned cables as planned; 252 cables in the
//               fabric; 2 findings"
//   "plans":   per input, in input order: source, planned, present, fabric_cables, findings,
//              merged (findings of other checks about the same cables that its findings
//              replace: graph/plan_check.h), switches [{name, planned, present, findings}] by name
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

std::string plan_summary_line(const PlanSummary& s);

// Sets j["plans"]: an empty array without --plan.
void add_plans_json(nlohmann::ordered_json& j, const std::vector<PlanSummary>& plans);

}  // namespace slurmtopo
