// The "since the baseline" section: findings new, fixed and still open; hosts and cables
// added or gone.
#include <ostream>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

void list(std::ostream& out, const std::string& title, const std::vector<std::string>& items) {
  out << "<h3>" << html_escape(title) << " (" << items.size() << ")</h3>\n";
  if (items.empty()) {
    out << "<p class=\"none\">None.</p>\n";
    return;
  }
  out << "<ul>";
  for (const auto& i : items) out << "<li>" << html_escape(i) << "</li>";
  out << "</ul>\n";
}

}  // namespace

void html_baseline(const CommissionReport& r, std::ostream& out) {
  if (!r.baseline) return;
  const BaselineDiff& b = *r.baseline;
  out << "<section id=\"baseline\"><h2>Since the baseline</h2>\n<p>Against " << html_escape(b.source) << ".</p>\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> cls;
  for (int i : b.new_findings)
    rows.push_back({"new", r.findings[i].kind, r.findings[i].subject, r.findings[i].detail}), cls.push_back("fail");
  for (const auto& f : b.fixed) rows.push_back({"fixed", f.kind, f.subject, f.detail}), cls.push_back("");
  for (int i : b.still_open)
    rows.push_back({"still open", r.findings[i].kind, r.findings[i].subject, r.findings[i].detail}), cls.push_back("warn");
  if (rows.empty()) out << "<p class=\"none\">No finding then or now.</p>\n";
  else html_table(out, "Findings against the baseline", {"status", "kind", "subject", "detail"}, rows, cls);
  list(out, "Hosts added", b.hosts_added);
  list(out, "Hosts gone", b.hosts_gone);
  list(out, "Cables added", b.cables_added);
  list(out, "Cables gone", b.cables_gone);
  out << "</section>\n";
}

}  // namespace slurmtopo
