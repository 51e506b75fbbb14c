// The cabling-plan section's model: per --plan, the comparison's counts (graph/plan_check.h)
// per unit and per switch, and the findings it gave.
#include <algorithm>
#include <map>

#include "report/commission_parts.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

std::vector<PlanSection> plan_cabling_sections(const Cluster& c, const std::vector<Finding>& findings) {
  std::map<std::string, const SwitchInfo*> by_name;
  for (const SwitchInfo& s : c.switches) by_name.emplace(s.name, &s);
  auto unit_of = [&](const std::string& name) -> std::string {
    auto it = by_name.find(name);
    if (it == by_name.end()) return "not in the fabric";
    const SwitchInfo& s = *it->second;
    if (s.group >= 0) return c.groups[s.group].name;
    return s.level > 1 ? "level " + std::to_string(s.level) : "off the compute paths";
  };

  // The plans' findings come in plan order, each plan's together (record_plan_findings).
  std::vector<int> plan_findings;
  for (size_t i = 0; i < findings.size(); ++i)
    if (findings[i].check == "fabric.plan") plan_findings.push_back(static_cast<int>(i));
  size_t next = 0;

  std::vector<PlanSection> out;
  for (const PlanSummary& summary : c.plan_checks) {
    PlanSection section;
    section.summary = summary;
    for (int k = 0; k < summary.findings && next < plan_findings.size(); ++k) section.findings.push_back(plan_findings[next++]);
    std::map<std::string, size_t> unit_at;
    std::vector<std::vector<PlanSwitchRow>> rows;
    for (const PlanSwitchTally& t : summary.switches) {
      PlanSwitchRow row{t.name, unit_of(t.name), t.planned, t.present, t.findings};
      auto [it, fresh] = unit_at.emplace(row.unit, section.units.size());
      if (fresh) {
        section.units.push_back({row.unit});
        rows.emplace_back();
      }
      PlanUnitRow& u = section.units[it->second];
      ++u.switches;
      u.planned += row.planned;
      u.present += row.present;
      u.findings += row.findings;
      rows[it->second].push_back(std::move(row));
    }
    // The units in name order, then the levels above them, then the rest.
    std::vector<size_t> order(section.units.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto rank = [&](size_t k) {
      const std::string& u = section.units[k].unit;
      return u.rfind("level ", 0) == 0 ? 1 : u == "off the compute paths" || u == "not in the fabric" ? 2 : 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      if (rank(x) != rank(y)) return rank(x) < rank(y);
      return natural_less(section.units[x].unit, section.units[y].unit);
    });
    std::vector<PlanUnitRow> units;
    for (size_t k : order) {
      units.push_back(section.units[k]);
      for (auto& row : rows[k]) section.switches.push_back(std::move(row));
    }
    section.units = std::move(units);
    out.push_back(std::move(section));
  }
  return out;
}

}  // namespace slurmtopo
