#include "report/simulate_report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/json_fields.h"
#include "base/text.h"
#include "base/version.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

double rounded(double x) { return std::isfinite(x) ? std::round(x * 1000) / 1000 : 0; }

std::string limit_of(const SizePrediction& s) {
  if (s.latency_bound) return "latency";
  if (s.bottlenecks.empty()) return "-";
  const Bottleneck& b = s.bottlenecks.front();
  return b.resource + " (" + fixed_decimals(b.oversubscription, 2) + "x)";
}

std::string choice_of(Algorithm a, Protocol p) { return std::string(to_string(a)) + "/" + to_string(p); }

void print_header(std::ostream& out, const Prediction& p, const HardwareProfile& profile) {
  out << to_string(p.collective) << " on " << compress_hostlist_in_order(p.hosts) << ": " << p.nodes << " node"
      << (p.nodes == 1 ? "" : "s") << " x " << profile.gpus_per_node << " GPUs = " << p.ranks << " ranks, "
      << p.channels << " channels over " << p.rails << " rail" << (p.rails == 1 ? "" : "s") << "\n";
  if (p.nvlink_domains > 0) {
    out << "NVLink domains: " << p.nvlink_domains << " (NCCL's nodes, MNNVL), up to " << p.domain_gpus
        << " GPUs each over NVLink";
    if (p.nvlink_domains > 1) out << "; " << p.rails << " NIC" << (p.rails == 1 ? "" : "s") << " a domain between them";
    out << "\n";
  }
}

void print_table(std::ostream& out, const Prediction& p, const HardwareProfile& profile) {
  out << "profile " << p.profile << " (" << profile.description << "), routing " << p.routing << "\n";
  print_header(out, p, profile);
  const bool busy = p.busy_jobs > 0;
  if (busy)
    out << "with " << p.busy_jobs << " job" << (p.busy_jobs == 1 ? "" : "s")
        << " running next door (busbw alone: the same placement without them)\n";
  char line[512];
  std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s %11s %11s%s  %s\n", "size", "algorithm", "time (us)",
                "algbw GB/s", "busbw GB/s", "ideal busbw", busy ? " busbw alone" : "", "limited by");
  out << line;
  for (const SizePrediction& s : p.sizes) {
    const std::string alone = busy ? " " + std::string(11 - std::min<size_t>(11, fixed_decimals(s.alone_busbw_gbs, 2).size()), ' ') +
                                         fixed_decimals(s.alone_busbw_gbs, 2)
                                   : "";
    std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s %11s %11s%s  %s\n", format_size(s.bytes).c_str(),
                  choice_of(s.algorithm, s.protocol).c_str(), fixed_decimals(s.time_us, 1).c_str(),
                  fixed_decimals(s.algbw_gbs, 2).c_str(), fixed_decimals(s.busbw_gbs, 2).c_str(), fixed_decimals(s.ideal_busbw_gbs, 2).c_str(),
                  alone.c_str(), limit_of(s).c_str());
    out << line;
  }
  for (const SizePrediction& s : p.sizes)
    if (s.better)
      out << "note: at " << format_size(s.bytes) << ", " << choice_of(s.better->algorithm, s.better->protocol)
          << " would take " << fixed_decimals(s.better->time_us, 1) << " us on this fabric (NCCL_ALGO="
          << to_string(s.better->algorithm) << ")\n";
  for (const std::string& w : p.warnings) out << "warning: " << w << "\n";
}

void print_compare(std::ostream& out, const Prediction& a, const Prediction& b, const HardwareProfile& profile) {
  out << "profile " << a.profile << " (" << profile.description << "), routing " << a.routing << "\n";
  out << "A: ";
  print_header(out, a, profile);
  out << "B: ";
  print_header(out, b, profile);
  char line[512];
  std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s  %-16s %12s %11s %8s\n", "size", "A algorithm",
                "A time (us)", "A busbw", "B algorithm", "B time (us)", "B busbw", "B/A");
  out << line;
  for (size_t i = 0; i < a.sizes.size(); ++i) {
    const SizePrediction &x = a.sizes[i], &y = b.sizes[i];
    std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s  %-16s %12s %11s %8s\n", format_size(x.bytes).c_str(),
                  choice_of(x.algorithm, x.protocol).c_str(), fixed_decimals(x.time_us, 1).c_str(),
                  fixed_decimals(x.busbw_gbs, 2).c_str(), choice_of(y.algorithm, y.protocol).c_str(),
                  fixed_decimals(y.time_us, 1).c_str(), fixed_decimals(y.busbw_gbs, 2).c_str(),
                  x.busbw_gbs > 0 ? fixed_decimals(y.busbw_gbs / x.busbw_gbs, 3).c_str() : "-");
    out << line;
  }
  if (!a.sizes.empty())
    for (const auto* p : {&a, &b})
      out << (p == &a ? "A" : "B") << " at " << format_size(p->sizes.back().bytes) << " limited by "
          << limit_of(p->sizes.back()) << "\n";
  for (const auto* p : {&a, &b})
    for (const std::string& w : p->warnings) out << "warning: " << (p == &a ? "A: " : "B: ") << w << "\n";
}

nlohmann::ordered_json to_json(const Prediction& p) {
  nlohmann::ordered_json j;
  j["nodes"] = compress_hostlist_in_order(p.hosts);
  j["hosts"] = p.hosts;
  j["node_count"] = p.nodes;
  j["ranks"] = p.ranks;
  j["channels"] = p.channels;
  j["rails"] = p.rails;
  if (p.nvlink_domains > 0) j["nvlink_domains"] = {{"count", p.nvlink_domains}, {"gpus_each", p.domain_gpus}};
  if (p.busy_jobs > 0) j["busy_jobs"] = p.busy_jobs;
  j["sizes"] = nlohmann::ordered_json::array();
  for (const SizePrediction& s : p.sizes) {
    nlohmann::ordered_json e;
    e["bytes"] = static_cast<uint64_t>(s.bytes);
    e["algorithm"] = to_string(s.algorithm);
    e["protocol"] = to_string(s.protocol);
    e["time_us"] = rounded(s.time_us);
    e["algbw_gbs"] = rounded(s.algbw_gbs);
    e["busbw_gbs"] = rounded(s.busbw_gbs);
    e["ideal_busbw_gbs"] = rounded(s.ideal_busbw_gbs);
    if (p.busy_jobs > 0) e["alone_busbw_gbs"] = rounded(s.alone_busbw_gbs);
    e["latency_bound"] = s.latency_bound;
    e["terms_us"] = {{"launch", rounded(s.terms.launch)}, {"latency", rounded(s.terms.latency)},
                     {"transfer", rounded(s.terms.transfer)}, {"sync", rounded(s.terms.sync)},
                     {"fill", rounded(s.terms.fill)}};
    e["bottlenecks"] = nlohmann::ordered_json::array();
    for (const Bottleneck& b : s.bottlenecks)
      e["bottlenecks"].push_back({{"resource", b.resource},
                                  {"capacity_gbs", rounded(b.capacity_gbs)},
                                  {"load_gbs", rounded(b.load_gbs)},
                                  {"offered_gbs", rounded(b.offered_gbs)},
                                  {"oversubscription", rounded(b.oversubscription)},
                                  {"flows", rounded(b.flows)}});
    e["bottlenecks_total"] = s.bottleneck_count;
    if (s.better)
      e["better"] = {{"algorithm", to_string(s.better->algorithm)},
                     {"protocol", to_string(s.better->protocol)},
                     {"time_us", rounded(s.better->time_us)}};
    j["sizes"].push_back(std::move(e));
  }
  j["warnings"] = p.warnings;
  return j;
}

}  // namespace

std::string simulate_report(const SimulationResult& r, bool json) {
  std::ostringstream out;
  const Prediction& a = r.placement;
  if (json) {
    nlohmann::ordered_json j;
    j[kSlurmtopoVersionKey] = slurmtopo_version();
    j["collective"] = to_string(a.collective);
    j["profile"] = r.profile.name;
    j["routing"] = a.routing;
    j["placements"] = nlohmann::ordered_json::array({to_json(a)});
    if (r.compared) j["placements"].push_back(to_json(*r.compared));
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else if (r.compared) {
    print_compare(out, a, *r.compared, r.profile);
  } else {
    print_table(out, a, r.profile);
  }
  return out.str();
}

}  // namespace slurmtopo
