#include "report/apply_report.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/atomic_write.h"
#include "base/json_fields.h"
#include "base/text.h"
#include "base/version.h"
#include "report/prometheus_text.h"

namespace slurmtopo {

namespace {

const char* summary(const ApplyResult& r) {
  switch (r.outcome) {
    case ApplyOutcome::Unchanged: return "nothing to do: the files in place are what slurmtopo would write";
    case ApplyOutcome::DryRun: return "dry run: nothing written (run without --dry-run to apply)";
    case ApplyOutcome::Applied: return "applied";
    case ApplyOutcome::Anomalies: return "not applied: too many anomalies";
    case ApplyOutcome::Refused: return "refused: nothing written, slurmctld untouched";
    case ApplyOutcome::RolledBack: return "apply failed and was rolled back";
  }
  return "";
}

}  // namespace

void report_apply(const ApplyResult& r, bool json, std::ostream& out, std::ostream& err) {
  if (json) {
    nlohmann::ordered_json j;
    j[kSlurmtopoVersionKey] = slurmtopo_version();
    j["result"] = to_string(r.outcome);
    j["exit_code"] = r.exit_code();
    j["reconfigured"] = r.reconfigured;
    if (!r.reason.empty()) j["reason"] = r.reason;
    j["files"] = nlohmann::ordered_json::array();
    for (const auto& f : r.files)
      j["files"].push_back({{"what", f.what}, {"path", f.path}, {"changed", f.changed}, {"diff", f.diff}});
    j["anomalies"] = r.anomalies;
    j["degraded_links"] = r.degraded_links;
    j["missing_links"] = r.missing_links;
    j["out_of_topology"] = r.out_of_topology;
    j["steps"] = r.steps;
    j["warnings"] = r.warnings;
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  for (const auto& w : r.warnings) err << "slurmtopo: warning: " << w << "\n";
  for (const auto& f : r.files) {
    out << f.path << ": " << (f.changed ? "changes" : "unchanged") << "\n";
    for (const auto& line : f.diff) out << "  " << line << "\n";
  }
  if (!r.out_of_topology.empty())
    out << counted(r.out_of_topology.size(), "node", "nodes") << " slurmctld knows under no switch\n";
  for (const auto& s : r.steps) out << "- " << s << "\n";
  if (r.exit_code() == 0) out << summary(r) << "\n";
  else err << "slurmtopo: " << summary(r) << ": " << r.reason << "\n";
}

std::string apply_textfile(const ApplyResult& r, int64_t now) {
  std::ostringstream s;
  s << "# slurmtopo " << slurmtopo_version() << " apply: the fabric's anomalies and the last apply's result.\n";
  s << "# HELP slurmtopo_anomalies Fabric anomalies found by the last apply, by kind.\n"
       "# TYPE slurmtopo_anomalies gauge\n";
  for (const auto& [kind, n] : r.anomalies) s << "slurmtopo_anomalies{kind=\"" << escaped_label(kind) << "\"} " << n << "\n";
  s << "# HELP slurmtopo_links_degraded Cables trained below their width or speed.\n"
       "# TYPE slurmtopo_links_degraded gauge\n"
       "slurmtopo_links_degraded " << r.degraded_links << "\n"
       "# HELP slurmtopo_links_missing Switches missing uplinks their level should have.\n"
       "# TYPE slurmtopo_links_missing gauge\n"
       "slurmtopo_links_missing " << r.missing_links << "\n"
       "# HELP slurmtopo_hosts_out_of_topology Nodes slurmctld knows that no switch of the topology lists.\n"
       "# TYPE slurmtopo_hosts_out_of_topology gauge\n"
       "slurmtopo_hosts_out_of_topology " << r.out_of_topology.size() << "\n"
       "# HELP slurmtopo_last_apply_timestamp_seconds When the last apply ran (Unix time).\n"
       "# TYPE slurmtopo_last_apply_timestamp_seconds gauge\n"
       "slurmtopo_last_apply_timestamp_seconds " << now << "\n"
       "# HELP slurmtopo_last_apply_exit_code The last apply's exit code (0 ok, 1 anomalies, 2 refused, 3 rolled back).\n"
       "# TYPE slurmtopo_last_apply_exit_code gauge\n"
       "slurmtopo_last_apply_exit_code " << r.exit_code() << "\n"
       "# HELP slurmtopo_last_apply_result 1 for the last apply's result.\n"
       "# TYPE slurmtopo_last_apply_result gauge\n";
  for (ApplyOutcome o : {ApplyOutcome::Unchanged, ApplyOutcome::DryRun, ApplyOutcome::Applied, ApplyOutcome::Anomalies,
                         ApplyOutcome::Refused, ApplyOutcome::RolledBack})
    s << "slurmtopo_last_apply_result{result=\"" << to_string(o) << "\"} " << (o == r.outcome ? 1 : 0) << "\n";
  return s.str();
}

void write_apply_textfile(const std::string& dir, const ApplyResult& r, int64_t now) {
  atomic_write((std::filesystem::path(dir) / "slurmtopo.prom").string(), apply_textfile(r, now));
}

}  // namespace slurmtopo
