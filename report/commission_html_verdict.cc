// The verdict section: the overall verdict, one line per check (what was checked, what was
// found, how many findings), then every finding.
#include <ostream>

#include "report/commission_parts.h"

namespace slurmtopo {

void html_verdict(const CommissionReport& r, std::ostream& out) {
  int fail = 0, warn = 0;
  for (const auto& c : r.checks) {
    fail += c.verdict == Verdict::Fail;
    warn += c.verdict == Verdict::Warn;
  }
  out << "<section id=\"verdict\"><h2>Verdict</h2>\n<div class=\"verdict " << to_string(r.verdict)
      << "\" role=\"status\" id=\"overall-verdict\">" << verdict_badge(r.verdict) << r.checks.size() << " checks: "
      << fail << " failed, " << warn << " warned, " << r.checks.size() - fail - warn << " passed; "
      << r.findings.size() << (r.findings.size() == 1 ? " finding" : " findings") << " (exit code " << r.exit_code()
      << ")</div>\n";
  out << "<table id=\"checks\"><caption>Checks</caption><thead><tr><th scope=\"col\">verdict</th>"
      << "<th scope=\"col\">check</th><th scope=\"col\">what was checked</th><th scope=\"col\">what was found</th>"
      << "<th scope=\"col\" class=\"num\">findings</th></tr></thead><tbody>\n";
  for (const auto& c : r.checks)
    out << "<tr class=\"" << to_string(c.verdict) << "\" data-check=\"" << html_escape(c.id) << "\"><td>"
        << verdict_badge(c.verdict) << "</td><td><code>" << html_escape(c.id) << "</code></td><td>"
        << html_escape(c.what) << "</td><td>" << html_escape(c.found) << "</td><td class=\"num\">" << c.count
        << "</td></tr>\n";
  out << "</tbody></table>\n";
  out << "<h3 id=\"findings\">Findings</h3>\n";
  if (r.findings.empty()) {
    out << "<p class=\"none\">No finding.</p>\n";
  } else {
    out << "<table><caption>Every finding, from the fabric and the nodes</caption><thead><tr>"
        << "<th scope=\"col\">#</th><th scope=\"col\">from</th><th scope=\"col\">severity</th><th scope=\"col\">kind</th>"
        << "<th scope=\"col\">subject</th><th scope=\"col\">detail</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < r.findings.size(); ++i) {
      const Finding& f = r.findings[i];
      out << "<tr class=\"finding " << to_string(f.severity) << "\" id=\"finding-" << i << "\" data-kind=\""
          << html_escape(f.kind) << "\"><td>" << i << "</td><td>" << html_escape(f.source) << "</td><td>"
          << to_string(f.severity) << "</td><td><code>" << html_escape(f.kind) << "</code></td><td>"
          << html_escape(f.subject) << "</td><td>" << html_escape(f.detail) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }
  out << "</section>\n";
}

}  // namespace slurmtopo
