// write_commission(): every rendering asked for, each written atomically, and the verdict
// lines on the terminal.
#include <filesystem>
#include <iostream>

#include "base/atomic_write.h"
#include "base/files.h"
#include "base/input_error.h"
#include "report/commission.h"
#include "report/report_textfile.h"

namespace slurmtopo {

int write_commission(const CommissionReport& r, const CommissionOutputs& o, std::ostream& out) {
  if (o.html.empty() && o.json.empty() && o.markdown.empty() && o.textfile.empty())
    throw InputError("report", 0, "expected somewhere to write the report: -o report.html, --json, --md or --textfile");
  // Render everything first: a write happens only once every rendering exists.
  const std::string html = o.html.empty() ? "" : commission_html(r);
  const std::string json = o.json.empty() ? "" : commission_json(r);
  const std::string md = o.markdown.empty() ? "" : commission_markdown(r);
  const std::string prom = o.textfile.empty() ? "" : report_textfile(r, o.now);
  auto put = [](const std::string& path, const std::string& text) {
    if (is_stdout(path)) std::cout << text;
    else atomic_write(path, text);
  };
  if (!o.html.empty()) put(o.html, html);
  if (!o.json.empty()) put(o.json, json);
  if (!o.markdown.empty()) put(o.markdown, md);
  if (!o.textfile.empty()) atomic_write((std::filesystem::path(o.textfile) / "slurmtopo_report.prom").string(), prom);
  out << "verdict: " << to_string(r.verdict) << "\n";
  for (const auto& c : r.checks) out << "  " << to_string(c.verdict) << "  " << c.id << ": " << c.found << "\n";
  return r.exit_code();
}

}  // namespace slurmtopo
