#include "report/measured_report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/exit_codes.h"
#include "base/text.h"
#include "base/version.h"

namespace slurmtopo {

namespace {

double rounded(double x) { return std::isfinite(x) ? std::round(x * 1000) / 1000 : 0; }

std::string signed_percent(double x) {
  const long p = std::lround(x * 100);
  return (p > 0 ? "+" : "") + std::to_string(p) + " %";
}

// "-" where either figure rounds to nothing (8 B at 0.00 GB/s): a percentage of it says nothing.
std::string shown_deviation(const SizeCheck& s) {
  return s.measured_gbs < 0.005 || s.predicted_gbs < 0.005 ? "-" : signed_percent(s.prediction_error);
}

void print_run(std::ostream& out, const RunComparison& r) {
  out << r.collective << " on " << r.hostlist << ": " << placement_text(r) << " (" << r.source << ")"
      << (r.logged ? ", NCCL log read" : ", no NCCL log of the run") << "\n";
  if (!r.complete) out << "  cut short: " << r.rows << " rows, no average line\n";
  if (!r.not_predicted.empty()) {
    out << "  not predicted: " << r.not_predicted << "\n";
  } else {
    char line[256];
    std::snprintf(line, sizeof line, "  %10s %14s %15s %-16s %9s %9s  %s\n", "size", "measured GB/s", "predicted GB/s",
                  "algorithm", "pred. error", "model", "standing");
    out << line;
    for (const SizeCheck& s : r.sizes) {
      const std::string tol = s.tolerance ? "\u00b1" + std::to_string(std::lround(*s.tolerance * 100)) + " %" : "-";
      std::snprintf(line, sizeof line, "  %10s %14s %15s %-16s %9s %9s  %s\n", format_size(s.bytes).c_str(),
                    fixed_decimals(s.measured_gbs, 2).c_str(), fixed_decimals(s.predicted_gbs, 2).c_str(),
                    s.algorithm.c_str(), shown_deviation(s).c_str(), tol.c_str(), to_string(s.standing));
      out << line;
    }
  }
  for (const Cause& c : r.causes) out << "  evidence " << c.order << ": " << c.detail << "\n";
}

}  // namespace

std::string placement_text(const RunComparison& r) {
  const std::string hosts = counted(r.hosts.size(), "host", "hosts");
  if (r.ranks == 0 && !r.job_log) return "no `# Using devices` lines";
  if (r.ranks == 0) return hosts + ", no rank finished init";
  if (r.gpus_per_host == 0) return hosts + ", " + counted(r.ranks, "rank", "ranks") + " unevenly";
  return hosts + " x " + std::to_string(r.gpus_per_host) + " = " + counted(r.ranks, "rank", "ranks");
}

std::string run_standing(const RunComparison& r) {
  if (!r.not_predicted.empty()) return "not predicted";
  if (r.below()) return "below";
  if (r.above()) return "above";
  return "within";
}

std::vector<std::string> probe_step_cells(const ProbeStep& s, const std::vector<RunComparison>& runs) {
  return {s.placement.name, to_string(s.placement.kind), s.placement.hostlist,
          std::string(to_string(s.state)) + (s.detail.empty() ? "" : ": " + s.detail),
          s.run >= 0 ? run_standing(runs[s.run]) : "-"};
}

nlohmann::ordered_json probe_steps_json(const std::vector<ProbeStep>& steps, const std::vector<RunComparison>& runs) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const ProbeStep& s : steps) {
    nlohmann::ordered_json o;
    o["name"] = s.placement.name;
    o["kind"] = to_string(s.placement.kind);
    o["hosts"] = s.placement.hostlist;
    o["state"] = to_string(s.state);
    o["run"] = s.run >= 0 ? nlohmann::ordered_json(s.run) : nlohmann::ordered_json();
    o["standing"] = s.run >= 0 ? nlohmann::ordered_json(run_standing(runs[s.run])) : nlohmann::ordered_json();
    o["detail"] = s.detail;
    out.push_back(o);
  }
  return out;
}

nlohmann::ordered_json causes_json(const std::vector<Cause>& causes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Cause& c : causes) out.push_back({{"order", c.order}, {"subject", c.subject}, {"detail", c.detail}});
  return out;
}

nlohmann::ordered_json measured_findings_json(const std::vector<MeasuredFinding>& findings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const MeasuredFinding& f : findings) {
    const FindingKind& k = measured_kind(f.kind);
    out.push_back({{"kind", k.name}, {"check", k.check}, {"severity", to_string(k.severity)}, {"subject", f.subject},
                   {"detail", f.detail}, {"count", f.count}});
  }
  return out;
}

void print_measured_findings(std::ostream& out, const std::vector<MeasuredFinding>& findings) {
  for (const MeasuredFinding& f : findings) {
    const FindingKind& k = measured_kind(f.kind);
    out << to_string(k.severity) << " " << k.name << " " << f.subject << ": " << f.detail << "\n";
  }
}

nlohmann::ordered_json run_placement_json(const RunComparison& r) {
  return {{"source", r.source},   {"collective", r.collective}, {"job_log", r.job_log},
          {"hosts", r.hostlist},  {"ranks", r.ranks},           {"gpus_per_host", r.gpus_per_host},
          {"nccl_log", r.logged}, {"complete", r.complete},     {"wrong", r.wrong}};
}

nlohmann::ordered_json measured_runs_json(const std::vector<RunComparison>& runs) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const RunComparison& r : runs) {
    nlohmann::ordered_json o = run_placement_json(r);
    if (!r.not_predicted.empty()) o["not_predicted"] = r.not_predicted;
    o["sizes"] = nlohmann::ordered_json::array();
    for (const SizeCheck& s : r.sizes) {
      nlohmann::ordered_json x;
      x["bytes"] = s.bytes;
      x["measured_busbw_gbs"] = rounded(s.measured_gbs);
      x["predicted_busbw_gbs"] = rounded(s.predicted_gbs);
      x["algorithm"] = s.algorithm;
      x["prediction_error"] = rounded(std::min(s.prediction_error, 1e6));
      x["tolerance"] = s.tolerance ? nlohmann::ordered_json(*s.tolerance) : nlohmann::ordered_json();
      x["standing"] = to_string(s.standing);
      o["sizes"].push_back(x);
    }
    o["causes"] = causes_json(r.causes);
    out.push_back(o);
  }
  return out;
}

int measured_exit_code(const MeasuredResult& result) {
  bool warn = false;
  for (const MeasuredFinding& f : result.findings) {
    const Severity s = measured_kind(f.kind).severity;
    if (s == Severity::Fail) return exit_code::kFails;
    warn |= s == Severity::Warn;
  }
  return warn ? exit_code::kAttention : exit_code::kOk;
}

std::string measured_report(const MeasuredResult& result, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["slurmtopo"] = slurmtopo_version();
    j["profile"] = result.comparison.profile;
    j["runs"] = measured_runs_json(result.comparison.runs);
    j["findings"] = measured_findings_json(result.findings);
    j["warnings"] = result.comparison.warnings;
    return j.dump(2) + "\n";
  }
  std::ostringstream out;
  out << "profile " << result.comparison.profile << "; measured busbw is the better of out-of-place and in-place\n";
  for (const RunComparison& r : result.comparison.runs) {
    print_run(out, r);
    out << "\n";
  }
  if (result.findings.empty()) out << "no finding: every claimed size within the model's error\n";
  print_measured_findings(out, result.findings);
  for (const std::string& w : result.comparison.warnings) out << "warning: " << w << "\n";
  return out.str();
}

}  // namespace slurmtopo
