#include "simulate/measured/measured_findings.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "base/text.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// 0.39 → "39 %": how far apart, the words around it say which way.
std::string magnitude(double x) { return std::to_string(std::lround(std::fabs(x) * 100)) + " %"; }

}  // namespace

std::vector<MeasuredFinding> measured_findings(const std::vector<RunComparison>& runs) {
  std::vector<MeasuredFinding> out;
  std::map<MeasuredKind, std::pair<std::set<std::string>, std::string>> evidence;
  for (const RunComparison& r : runs) {
    const std::string what = r.collective + " on " + r.hostlist + ", " + std::to_string(r.ranks) + " GPUs (" + r.source + ")";
    const std::string subject = r.hostlist + " " + r.collective;
    if (r.wrong > 0)
      out.push_back({MeasuredKind::Wrong, subject,
                     what + ": " + counted(r.wrong, "wrong element", "wrong elements") + " (first at row line " +
                         std::to_string(r.wrong_line) +
                         "): a GPU, NVLink or NIC corrupts data; rerun single-node on each host to find it"});
    if (const SizeCheck* s = r.largest_below()) {
      std::string detail = what + ": " + format_size(s->bytes) + " " + fixed_decimals(s->measured_gbs, 1) +
                           " GB/s busbw measured, " + fixed_decimals(s->predicted_gbs, 1) + " predicted (" +
                           "the prediction " + magnitude(s->prediction_error) +
                           " over the measurement; the model claims ±" +
                           std::to_string(std::lround(*s->tolerance * 100)) + " %)";
      if (!r.causes.empty()) {
        detail += "; likely cause: " + r.causes.front().detail;
        if (r.causes.size() > 1) detail += "; also " + counted(r.causes.size() - 1, "more piece", "more pieces") + " of evidence";
      } else if (!r.logged) {
        detail += "; nothing in the evidence explains it, and no NCCL log of the run was read (rerun with "
                  "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET,GRAPH: the transport, GPUDirect and HCAs are in it)";
      } else {
        detail += "; nothing in the evidence explains it: RDMA with GPUDirect on every host, no finding on its hosts, "
                  "no erroring or degraded cable on its routes";
      }
      out.push_back({MeasuredKind::Below, subject, detail});
    } else if (const SizeCheck* a = r.largest_above()) {
      out.push_back({MeasuredKind::Above, subject,
                     what + ": " + format_size(a->bytes) + " " + fixed_decimals(a->measured_gbs, 1) + " GB/s measured, " +
                         fixed_decimals(a->predicted_gbs, 1) + " predicted (the prediction " +
                         magnitude(a->prediction_error) + " under the measurement" +
                         "): the model underrates this placement there"});
    }
    for (const Cause& c : r.causes) {
      if (c.order > 3) continue;
      auto& [hosts, detail] = evidence[c.kind];
      hosts.insert(c.hosts.begin(), c.hosts.end());
      if (detail.empty()) detail = c.detail;
    }
  }
  for (auto& [kind, e] : evidence)
    out.push_back({kind, compress_hostlist({e.first.begin(), e.first.end()}), e.second, static_cast<int>(e.first.size())});
  return out;
}

std::vector<MeasuredFinding> probe_step_findings(const std::vector<ProbeStep>& steps) {
  std::vector<MeasuredFinding> out;
  for (const ProbeStep& s : steps) {
    const std::string what = s.placement.name + " (" + to_string(s.placement.kind) + ", " + s.placement.hostlist + ")";
    std::string detail;
    switch (s.state) {
      case StepState::Measured: continue;
      case StepState::CutShort:
        detail = what + ": its run stopped before its last size (the job's time limit, or a hang): give the job more "
                        "time (probe -t) and rerun the step";
        break;
      case StepState::OtherHosts:
        detail = what + ": its output holds a run that " + s.detail + ", not on the placement's hosts";
        break;
      case StepState::NoRun:
        detail = what + ": its output holds no nccl-tests run; it starts \"" + s.detail +
                 "\": fix that and rerun the step's srun line from probe.sbatch";
        break;
      case StepState::NoOutput:
        detail = what + ": no " + std::filesystem::path(s.placement.output).filename().string() +
                 ": the step never ran (the job ended first, or it is still running)";
        break;
    }
    out.push_back({MeasuredKind::StepUnmeasured, s.placement.name, detail});
  }
  return out;
}

}  // namespace slurmtopo
