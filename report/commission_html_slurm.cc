// The Slurm section: each generated file (topology.conf, the block topology.conf or
// topology.yaml asked for, gres.conf, the NodeName lines) with its validation, and the diff
// of the topology file in service against the generated one of its plugin.
#include <ostream>

#include "report/commission_parts.h"

namespace slurmtopo {

void html_slurm(const CommissionReport& r, std::ostream& out) {
  out << "<section id=\"slurm\"><h2>Slurm</h2>\n";
  for (const SlurmFile& f : r.slurm) {
    out << "<h3>" << html_escape(f.name) << "</h3>\n";
    if (!f.check.empty()) {
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> cls;
      for (const auto& e : f.errors) rows.push_back({"error", e}), cls.push_back("fail");
      for (const auto& w : f.warnings) rows.push_back({"warning", w}), cls.push_back("warn");
      if (rows.empty()) out << "<p>" << verdict_badge(Verdict::Pass) << " passes every check.</p>\n";
      else html_table(out, "Validation of " + f.name, {"severity", "message"}, rows, cls);
    }
    out << "<pre>" << html_escape(f.text) << "</pre>\n";
  }
  if (!r.topology_in_service.empty()) {
    out << "<h3>The topology file in service (" << html_escape(r.topology_in_service) << ") against the generated "
        << html_escape(r.topology_compared_with) << "</h3>\n";
    if (r.topology_diff.empty()) {
      out << "<p>" << verdict_badge(Verdict::Pass) << " no difference.</p>\n";
    } else {
      out << "<pre id=\"topology-diff\">";
      for (const auto& l : r.topology_diff) out << html_escape(l) << "\n";
      out << "</pre>\n";
    }
  }
  out << "</section>\n";
}

}  // namespace slurmtopo
