#include "report/report_textfile.h"

#include <map>
#include <sstream>
#include <tuple>

#include "base/version.h"
#include "report/commission_parts.h"
#include "report/prometheus_text.h"

namespace slurmtopo {
namespace {

int verdict_value(Verdict v) { return v == Verdict::Pass ? 0 : v == Verdict::Warn ? 1 : 2; }

}  // namespace

std::string report_textfile(const CommissionReport& r, int64_t now) {
  std::ostringstream s;
  s << "# slurmtopo " << slurmtopo_version() << ": the commissioning report's verdict.\n"
    << "# HELP slurmtopo_report_check A check's verdict: 0 pass, 1 warn, 2 fail.\n"
    << "# TYPE slurmtopo_report_check gauge\n";
  for (const Check& c : r.checks) s << "slurmtopo_report_check{check=\"" << escaped_label(c.id) << "\"} " << verdict_value(c.verdict) << "\n";
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int> counts;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, int> per_host;
  for (const Finding& f : r.findings) {
    counts[{f.source, f.kind, f.check, to_string(f.severity)}] += f.count;
    if (f.source != "nodes") continue;
    for (const std::string& h : finding_names(f.subject)) per_host[{h, f.kind, f.check, to_string(f.severity)}] = 1;
  }
  s << "# HELP slurmtopo_report_findings What the findings of a kind are about (hosts, cables, ports).\n"
    << "# TYPE slurmtopo_report_findings gauge\n";
  for (const auto& [k, n] : counts)
    s << "slurmtopo_report_findings{source=\"" << escaped_label(std::get<0>(k)) << "\",kind=\"" << escaped_label(std::get<1>(k))
      << "\",check=\"" << escaped_label(std::get<2>(k)) << "\",severity=\"" << escaped_label(std::get<3>(k)) << "\"} " << n << "\n";
  s << "# HELP slurmtopo_node_finding A node finding on this host (1), by kind.\n"
    << "# TYPE slurmtopo_node_finding gauge\n";
  for (const auto& [k, n] : per_host)
    s << "slurmtopo_node_finding{host=\"" << escaped_label(std::get<0>(k)) << "\",kind=\"" << escaped_label(std::get<1>(k))
      << "\",check=\"" << escaped_label(std::get<2>(k)) << "\",severity=\"" << escaped_label(std::get<3>(k)) << "\"} " << n << "\n";
  s << "# HELP slurmtopo_report_timestamp_seconds When the report was made (Unix time).\n"
    << "# TYPE slurmtopo_report_timestamp_seconds gauge\n"
    << "slurmtopo_report_timestamp_seconds " << now << "\n";
  return s.str();
}

}  // namespace slurmtopo
