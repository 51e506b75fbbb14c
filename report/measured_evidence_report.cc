#include "report/measured_evidence_report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

#include "base/text.h"
#include "base/version.h"
#include "report/measured_report.h"
#include "simulate/collective/prediction.h"

namespace slurmtopo {

namespace {

// 12040 → "12.4", as nvidia-smi prints the CUDA version a driver supports.
std::string driver_cuda(int v) {
  return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "-";
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

// NCCL prints its version from rank 0 only (init.cc): the run's is any host's.
std::string nccl_version(const MeasuredRun& run) {
  for (const HostEvidence& e : run.evidence)
    if (!e.version.empty()) return e.version;
  return "";
}

std::string gpu_name(const MeasuredRun& run) {
  return run.test.devices.empty() ? std::string() : run.test.devices.front().name;
}

void print_hosts(std::ostream& out, const MeasuredRun& run) {
  char line[512];
  std::snprintf(line, sizeof line, "  %-14s %-6s %-8s %-10s %-8s %-7s %s\n", "host", "CUDA", "network", "NET/IB ch",
                "GDRDMA", "socket", "HCAs bound (NCCL_IB_HCA)");
  out << line;
  for (const HostEvidence& e : run.evidence) {
    if (!e.logged) {
      std::snprintf(line, sizeof line, "  %-14s no NCCL line of this run\n", e.host.c_str());
      out << line;
      continue;
    }
    const std::string bound = e.hcas.empty() ? (e.socket_devices.empty() ? "-" : join_list(e.socket_devices))
                                             : join_list(e.hcas);
    std::snprintf(line, sizeof line, "  %-14s %-6s %-8s %-10d %-8d %-7d %s%s\n", e.host.c_str(),
                  driver_cuda(e.cuda_driver).c_str(), or_dash(e.network).c_str(),
                  e.ib_channels, e.gdr_channels, e.socket_channels, bound.c_str(),
                  e.ib_hca_env.empty() ? "" : (" (" + e.ib_hca_env + ")").c_str());
    out << line;
  }
}

void print_rows(std::ostream& out, const MeasuredRun& run) {
  if (run.test.rows.empty()) {
    out << "  no size row: the run ended, or hung, before its first size\n";
    return;
  }
  char line[256];
  std::snprintf(line, sizeof line, "  %10s %18s %15s %8s\n", "size", "out-of-place GB/s", "in-place GB/s", "#wrong");
  out << line;
  for (const NcclTestsRow& r : run.test.rows) {
    const long wrong = r.out_of_place.nwrong < 0 && r.in_place.nwrong < 0
                           ? -1
                           : std::max(r.out_of_place.nwrong, 0L) + std::max(r.in_place.nwrong, 0L);
    std::snprintf(line, sizeof line, "  %10s %18s %15s %8s\n", format_size(r.bytes).c_str(),
                  fixed_decimals(r.out_of_place.busbw_gbs, 2).c_str(), fixed_decimals(r.in_place.busbw_gbs, 2).c_str(),
                  wrong < 0 ? "N/A" : std::to_string(wrong).c_str());
    out << line;
  }
  if (run.test.avg_busbw_gbs) out << "  average bus bandwidth " << fixed_decimals(*run.test.avg_busbw_gbs, 2) << " GB/s\n";
  else out << "  cut short: " << run.test.rows.size() << " rows, no average line\n";
}

nlohmann::ordered_json run_json(const MeasuredRun& run, const RunComparison& w) {
  nlohmann::ordered_json o = run_placement_json(w);
  o["gpu"] = gpu_name(run);
  o["nccl_tests_version"] = run.test.version;
  o["nccl_version"] = nccl_version(run);
  o["avg_busbw_gbs"] = run.test.avg_busbw_gbs ? nlohmann::ordered_json(*run.test.avg_busbw_gbs) : nlohmann::ordered_json();
  o["host_evidence"] = nlohmann::ordered_json::array();
  for (const HostEvidence& e : run.evidence) {
    nlohmann::ordered_json h;
    h["host"] = e.host;
    h["logged"] = e.logged;
    h["ranks"] = e.ranks.size();
    h["source"] = e.source;
    h["cuda_driver"] = e.cuda_driver;
    h["network"] = e.network;
    h["no_libibverbs"] = e.no_verbs;
    h["no_ib_device"] = e.no_ib_device;
    h["hcas"] = e.hcas;
    h["socket_devices"] = e.socket_devices;
    h["ib_channels"] = e.ib_channels;
    h["gdr_channels"] = e.gdr_channels;
    h["socket_channels"] = e.socket_channels;
    h["gdr_disabled"] = e.gdr_disabled.size();
    h["nccl_ib_hca"] = e.ib_hca_env;
    o["host_evidence"].push_back(h);
  }
  o["sizes"] = nlohmann::ordered_json::array();
  for (const NcclTestsRow& r : run.test.rows)
    o["sizes"].push_back({{"bytes", r.bytes},
                          {"out_of_place_busbw_gbs", r.out_of_place.busbw_gbs},
                          {"in_place_busbw_gbs", r.in_place.busbw_gbs},
                          {"out_of_place_wrong", r.out_of_place.nwrong},
                          {"in_place_wrong", r.in_place.nwrong},
                          {"line", r.line}});
  o["causes"] = causes_json(w.causes);
  return o;
}

}  // namespace

std::string measured_evidence_report(const MeasuredEvidence& e, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["slurmtopo"] = slurmtopo_version();
    j["runs"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < e.runs.size(); ++i) j["runs"].push_back(run_json(e.runs[i], e.weighed[i]));
    j["findings"] = measured_findings_json(e.findings);
    j["warnings"] = e.warnings;
    return j.dump(2) + "\n";
  }
  std::ostringstream out;
  for (size_t i = 0; i < e.runs.size(); ++i) {
    const MeasuredRun& run = e.runs[i];
    const RunComparison& w = e.weighed[i];
    out << w.collective << " on " << w.hostlist << ": " << placement_text(w);
    if (!gpu_name(run).empty()) out << " of " << gpu_name(run);
    out << " (" << w.source << (run.test.version.empty() ? "" : ", nccl-tests " + run.test.version)
        << (nccl_version(run).empty() ? "" : ", NCCL " + nccl_version(run)) << ")\n";
    if (run.logged()) print_hosts(out, run);
    else out << "  no NCCL log of the run (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET shows the transport, "
                "GPUDirect and HCAs)\n";
    if (!run.job_log) print_rows(out, run);
    for (const Cause& c : w.causes) out << "  evidence " << c.order << ": " << c.detail << "\n";
    out << "\n";
  }
  if (e.findings.empty()) out << "no finding in the runs' output and logs (`simulate --measured` compares them with the prediction)\n";
  print_measured_findings(out, e.findings);
  for (const std::string& w : e.warnings) out << "warning: " << w << "\n";
  return out.str();
}

}  // namespace slurmtopo
