// The report page: one self-contained HTML file — inline CSS and SVG, no script, no font, no
// network — verdict first, then one section per part of the report (commission_html_*.cc).
// Printable: the print style drops the navigation and keeps tables and drawings on the page.
#include <cstdio>
#include <sstream>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

const char* kStyle = R"(
:root{--pass:#1a7f37;--warn:#9a6700;--fail:#cf222e;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;color:var(--ink);margin:0 auto;max-width:1040px;padding:16px 24px}
h1{font-size:24px;margin:8px 0 4px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
p.meta{color:var(--muted);margin:2px 0;word-break:break-all}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:0 12px;margin:4px 0;color:var(--muted);font-size:13px}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;word-break:break-all}
nav{margin:10px 0;font-size:13px}nav a{margin-right:12px;color:#0969da;text-decoration:none}
table{border-collapse:collapse;margin:6px 0 12px;width:100%;font-size:13px}
caption{text-align:left;font-weight:600;padding:4px 0;color:var(--muted)}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:var(--bg)}td.num,th.num{text-align:right}
tr.fail td{background:#ffebe9}tr.warn td{background:#fff8c5}
.badge{display:inline-block;font-weight:700;border-radius:4px;padding:1px 8px;color:#fff;text-transform:uppercase;font-size:12px}
.badge.pass{background:var(--pass)}.badge.warn{background:var(--warn)}.badge.fail{background:var(--fail)}
.verdict{font-size:20px;padding:12px 16px;border-radius:6px;margin:10px 0;border:2px solid}
.verdict.pass{border-color:var(--pass)}.verdict.warn{border-color:var(--warn)}.verdict.fail{border-color:var(--fail)}
.verdict .badge{font-size:18px;margin-right:10px}
pre{background:var(--bg);border:1px solid var(--line);padding:8px;overflow-x:auto;font-size:12px;max-height:480px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace}
figure{margin:8px 0}figcaption{color:var(--muted);font-size:12px}
svg{max-width:100%;height:auto}
table.matrix td,table.matrix th{text-align:center;font-family:ui-monospace,"DejaVu Sans Mono",monospace;padding:2px 4px}
td.X{background:#eee}td.NV{background:#dafbe1}td.PIX,td.PXB{background:#ddf4ff}td.SYS{background:#ffebe9}
.none{color:var(--muted)}
@media print{nav{display:none}body{max-width:none;padding:0;font-size:11px}pre{max-height:none;white-space:pre-wrap}
section{break-inside:auto}figure,tr{break-inside:avoid}h2{break-after:avoid}a{color:inherit;text-decoration:none}}
)";

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string svg_num(double v, const char* fmt) {
  char b[32];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

void html_table(std::ostream& out, const std::string& caption, const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& cls) {
  out << "<table>";
  if (!caption.empty()) out << "<caption>" << html_escape(caption) << "</caption>";
  out << "<thead><tr>";
  for (const auto& h : header) out << "<th scope=\"col\">" << html_escape(h) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    out << (i < cls.size() && !cls[i].empty() ? "<tr class=\"" + cls[i] + "\">" : "<tr>");
    for (const auto& c : rows[i]) out << "<td>" << html_escape(c) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

std::string verdict_badge(Verdict v) {
  return std::string("<span class=\"badge ") + to_string(v) + "\">" + to_string(v) + "</span>";
}

std::string commission_html(const CommissionReport& r) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      // No network, no script: the page may not fetch anything, even a favicon.
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">"
      << "<link rel=\"icon\" href=\"data:,\">"
      << "<title>slurmtopo commissioning report" << (r.cluster.empty() ? "" : " for " + html_escape(r.cluster)) << ": "
      << to_string(r.verdict) << "</title><style>" << kStyle << "</style></head>\n<body>\n<header><h1>Commissioning report"
      << (r.cluster.empty() ? "" : ": " + html_escape(r.cluster)) << "</h1>\n";
  if (!r.command.empty()) out << "<p class=\"meta\"><code>" << html_escape(r.command) << "</code></p>\n";
  out << "<dl class=\"meta\" id=\"provenance\">";
  for (const auto& [label, value] : provenance(r))
    out << "<dt>" << html_escape(label) << "</dt><dd>" << html_escape(value) << "</dd>";
  out << "</dl>\n";
  out << "<nav aria-label=\"sections\"><a href=\"#verdict\">Verdict</a><a href=\"#inventory\">Inventory</a>"
      << "<a href=\"#drawing\">Drawing</a><a href=\"#links\">Link health</a>"
      << (r.plans.empty() ? "" : "<a href=\"#plan\">Cabling plan</a>")
      << (r.classes.empty() ? "" : "<a href=\"#nodes\">Nodes</a>")
      << (r.performance ? "<a href=\"#performance\">Performance</a>" : "")
      << (r.measured ? "<a href=\"#measured\">Measured</a>" : "") << "<a href=\"#slurm\">Slurm</a>"
      << (r.baseline ? "<a href=\"#baseline\">Since the baseline</a>" : "") << "</nav></header>\n<main>\n";
  html_verdict(r, out);
  html_baseline(r, out);
  html_inventory(r, out);
  html_drawing(r, out);
  html_links(r, out);
  html_cabling_plan(r, out);
  html_nodes(r, out);
  html_performance(r, out);
  html_measured(r, out);
  html_slurm(r, out);
  out << "</main>\n<footer><p class=\"meta\">slurmtopo report, schema version " << kReportSchemaVersion
      << "</p></footer>\n</body></html>\n";
  return out.str();
}

}  // namespace slurmtopo
