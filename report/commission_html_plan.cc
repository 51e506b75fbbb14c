// The cabling-plan section, shown only with --plan: per plan, how many planned cables are as
// planned; the units, each with its switches' counts; the switches a finding names (the others
// counted in one line); and the plan's findings, each with what to do at the rack.
#include <ostream>

#include "report/cabling_plan_summary.h"
#include "report/commission_parts.h"

namespace slurmtopo {

void html_cabling_plan(const CommissionReport& r, std::ostream& out) {
  if (r.plans.empty()) return;
  out << "<section id=\"plan\"><h2>Cabling against the plan</h2>\n";
  for (const PlanSection& p : r.plans) {
    out << "<p class=\"meta\">" << html_escape(plan_summary_line(p.summary)) << "</p>\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> cls;
    for (const PlanUnitRow& u : p.units) {
      rows.push_back({u.unit, std::to_string(u.switches), std::to_string(u.planned), std::to_string(u.present),
                      std::to_string(u.findings)});
      cls.push_back(u.findings ? "fail" : "");
    }
    if (!rows.empty())
      html_table(out, "Per unit: planned cables at its switches, as planned, and findings there",
                 {"unit", "switches", "planned", "as planned", "findings"}, rows, cls);
    rows.clear();
    cls.clear();
    int clean = 0;
    for (const PlanSwitchRow& s : p.switches) {
      if (!s.findings && s.present == s.planned) {
        ++clean;
        continue;
      }
      rows.push_back({s.name, s.unit, std::to_string(s.planned), std::to_string(s.present), std::to_string(s.findings)});
      cls.push_back(s.findings ? "fail" : "");
    }
    if (!rows.empty())
      html_table(out, "Switches with a cable not as planned", {"switch", "unit", "planned", "as planned", "findings"}, rows,
                 cls);
    if (clean)
      out << "<p class=\"none\">" << clean << (clean == 1 ? " other switch has" : " other switches have")
          << " every planned cable as planned.</p>\n";
    rows.clear();
    cls.clear();
    for (int i : p.findings) {
      const Finding& f = r.findings[i];
      rows.push_back({"#" + std::to_string(i), f.kind, f.subject, f.detail});
      cls.push_back(to_string(f.severity));
    }
    if (rows.empty())
      out << "<p class=\"none\">Every planned cable is in the fabric as planned, and the fabric has no other.</p>\n";
    else
      html_table(out, "Cables not as planned, and what to do at the rack", {"#", "kind", "cable / ports / device", "detail"},
                 rows, cls);
  }
  out << "</section>\n";
}

}  // namespace slurmtopo
