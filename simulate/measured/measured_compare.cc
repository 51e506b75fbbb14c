#include "simulate/measured/measured_compare.h"

#include <algorithm>
#include <cctype>

#include "base/input_error.h"
#include "simulate/collective/model_error.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {


std::optional<Collective> model_collective(const std::string& name) {
  if (name == "all_reduce") return Collective::AllReduce;
  if (name == "reduce_scatter") return Collective::ReduceScatter;
  if (name == "all_gather") return Collective::AllGather;
  if (name == "broadcast") return Collective::Broadcast;
  return std::nullopt;
}

// A GPU the run's device lines name that is not the profile's model ("NVIDIA A100-SXM4-80GB"
// against h100-ndr's H100), or "": a prediction for other hardware would judge nothing.
std::string other_gpu(const NcclTestsRun& run, const HardwareProfile& p) {
  std::string model = p.gpu_model;
  for (char& ch : model) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (const NcclTestsDevice& d : run.devices) {
    std::string name = d.name;
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (!name.empty() && !model.empty() && name.find(model) == std::string::npos) return d.name;
  }
  return "";
}

void size_checks(RunComparison& out, const MeasuredRun& run, const Prediction& p, int sm) {
  for (const NcclTestsRow& row : run.test.rows) {
    auto it = std::find_if(p.sizes.begin(), p.sizes.end(), [&](const SizePrediction& s) { return s.bytes == row.bytes; });
    if (it == p.sizes.end()) continue;
    SizeCheck c;
    c.bytes = row.bytes;
    c.line = row.line;
    c.measured_gbs = std::max(row.out_of_place.busbw_gbs, row.in_place.busbw_gbs);
    c.predicted_gbs = it->busbw_gbs;
    c.algorithm = std::string(to_string(it->algorithm)) + "/" + to_string(it->protocol);
    c.prediction_error = c.measured_gbs > 0 ? c.predicted_gbs / c.measured_gbs - 1 : c.predicted_gbs > 0 ? 1e9 : 0;
    const StatedError e = stated_error(row.bytes, static_cast<int>(run.hosts.size()), sm);
    c.tolerance = e.tolerance;
    // The claim is the calibration's: the prediction within ±tolerance of the measurement
    // (docs/simulator.md: |predicted / published − 1|), so the band is taken around the
    // measured figure, not the predicted one.
    if (!e.tolerance || c.predicted_gbs <= 0) c.standing = Standing::NotClaimed;
    else if (c.prediction_error > *e.tolerance) c.standing = Standing::Below;
    else if (c.prediction_error < -*e.tolerance) c.standing = Standing::Above;
    else c.standing = Standing::Within;
    out.sizes.push_back(c);
  }
}

}  // namespace

const char* to_string(Standing s) {
  switch (s) {
    case Standing::Within: return "within";
    case Standing::Below: return "below";
    case Standing::Above: return "above";
    case Standing::NotClaimed: return "not claimed";
  }
  return "?";
}

bool RunComparison::below() const { return largest_below() != nullptr; }
bool RunComparison::above() const { return largest_above() != nullptr; }

namespace {
const SizeCheck* largest(const std::vector<SizeCheck>& sizes, Standing standing) {
  const SizeCheck* out = nullptr;
  for (const SizeCheck& s : sizes)
    if (s.standing == standing && (!out || s.bytes > out->bytes)) out = &s;
  return out;
}
}  // namespace

const SizeCheck* RunComparison::largest_below() const { return largest(sizes, Standing::Below); }
const SizeCheck* RunComparison::largest_above() const { return largest(sizes, Standing::Above); }

RunComparison compare_run(const MeasuredRun& run, const MeasuredContext& ctx) {
  RunComparison out;
  out.source = run.test.source + ":" + std::to_string(run.test.line);
  out.collective = run.job_log ? "NCCL job" : run.test.collective.empty() ? "unknown collective" : run.test.collective;
  out.job_log = run.job_log;
  out.hosts = run.hosts;
  out.hostlist = run.hosts.empty() ? "(hosts unknown)" : compress_hostlist(run.hosts);
  out.ranks = run.test.ranks();
  if (run.job_log)
    for (const HostEvidence& e : run.evidence) out.ranks += static_cast<int>(e.ranks.size());
  out.gpus_per_host = run.gpus_per_host;
  out.logged = run.logged();
  out.complete = run.job_log || run.test.complete;
  out.rows = static_cast<int>(run.test.rows.size());
  for (const NcclTestsRow& row : run.test.rows)
    for (const NcclTestsFigures* f : {&row.out_of_place, &row.in_place})
      if (f->nwrong > 0) {
        out.wrong += f->nwrong;
        if (!out.wrong_line) out.wrong_line = row.line;
      }
  const Cluster& c = ctx.fabric->cluster();
  HardwareProfile p = ctx.profile ? *ctx.profile : HardwareProfile{};
  out.profile = p.name;
  const std::optional<Collective> collective = model_collective(run.test.collective);
  if (run.job_log) {
    out.not_predicted = "an NCCL log with no nccl-tests run: its evidence is weighed, no busbw is measured";
  } else if (!ctx.profile) {
    out.not_predicted = "no hardware to predict with: give --profile, or --nodes-dir with the hosts' exports";
  } else if (const std::string other = other_gpu(run.test, *ctx.profile); !other.empty()) {
    out.not_predicted = "the run's GPUs are " + other + ", profile " + ctx.profile->name + "'s " +
                        ctx.profile->gpu_model + ": give the profile of the hardware measured (--profile, or "
                        "--nodes-dir with the hosts' exports)";
  } else if (!collective) {
    out.not_predicted = run.test.collective.empty()
                            ? "the output does not name its collective (nccl-tests before 2.16.7: keep the program's "
                              "name in the file's, e.g. all_reduce_perf.out)"
                            : "the model predicts all_reduce, reduce_scatter, all_gather and broadcast, not " +
                                  run.test.collective;
  } else if (run.hosts.empty()) {
    out.not_predicted = "the output has no `# Using devices` lines: which hosts ran it is unknown";
  } else if (out.ranks < 2) {
    out.not_predicted = "one rank: nothing moves between GPUs";
  } else if (run.gpus_per_host == 0) {
    out.not_predicted = "its hosts run different numbers of ranks";
  } else if (run.gpus_per_host > p.gpus_per_node) {
    out.not_predicted = std::to_string(run.gpus_per_host) + " ranks per host, more than the " +
                        std::to_string(p.gpus_per_node) + " GPUs of profile " + p.name;
  } else {
    for (const std::string& h : run.hosts)
      if (c.host_index(h) < 0) {
        out.not_predicted = "host " + h + " is not in the fabric";
        break;
      }
  }
  if (out.not_predicted.empty()) {
    // Fewer ranks per host than the node's GPUs: the first GPUs, each with its own NIC.
    if (run.gpus_per_host < p.gpus_per_node) {
      p.gpus_per_node = run.gpus_per_host;
      p.nics_per_node = std::min(p.nics_per_node, run.gpus_per_host);
    }
    SimulateOptions options;
    options.collective = *collective;
    options.routing = ctx.routing;
    options.nvlink_domains = ctx.nvlink_domains;
    if (run.gpus_per_host == ctx.profile->gpus_per_node) options.gpu_nics = ctx.gpu_nics;
    options.sizes.clear();
    for (const NcclTestsRow& row : run.test.rows)
      if (row.bytes > 0 && std::find(options.sizes.begin(), options.sizes.end(), row.bytes) == options.sizes.end())
        options.sizes.push_back(row.bytes);
    if (options.sizes.empty()) {
      out.not_predicted = "the run printed no size row: it ended, or hung, before its first size";
    } else {
      try {
        size_checks(out, run, predict(*ctx.fabric, run.hosts, p, options), p.sm);
      } catch (const InputError& e) {
        out.not_predicted = e.what();
      }
    }
  }
  out.causes = find_causes(run, ctx, out.not_predicted.empty() ? &p : nullptr);
  return out;
}

}  // namespace slurmtopo
