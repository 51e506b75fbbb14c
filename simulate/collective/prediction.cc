#include "simulate/collective/prediction.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "base/input_error.h"

namespace slurmtopo {

namespace {

constexpr Algorithm kAlgorithmOrder[] = {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree};
constexpr Protocol kProtocolOrder[] = {Protocol::LL, Protocol::LL128, Protocol::Simple};

struct Candidate {
  Algorithm a;
  Protocol p;
};

// Why --algo cannot be honoured, for the error message.
std::string why_unavailable(Algorithm a, Collective c, const HardwareProfile& h, const Layout& l) {
  if (l.ranks() < 2) return "one GPU has nothing to exchange";
  switch (a) {
    case Algorithm::Ring: break;
    case Algorithm::Tree: return "NCCL runs trees for allreduce only";
    case Algorithm::Nvls:
      if (!h.nvls) return "profile " + h.name + " has no NVLink SHARP (NVSwitch with NVLS)";
      if (l.nodes > 1) return "NVLS spans one node (several need SHARP in the network); use nvlstree";
      return std::string("NCCL has no NVLS ") + to_string(c);
    case Algorithm::NvlsTree:
      if (!h.nvls) return "profile " + h.name + " has no NVLink SHARP (NVSwitch with NVLS)";
      if (l.nodes < 2) return "NVLSTree needs several nodes; use nvls";
      return "NCCL runs NVLSTree for allreduce only";
  }
  return "no protocol of the profile is available";
}

}  // namespace

Prediction predict(const FabricModel& fabric, const std::vector<std::string>& hosts,
                   const HardwareProfile& tray, const SimulateOptions& options) {
  if (hosts.empty()) throw InputError("--nodes", 0, "expected at least one host");
  Placement placement = resolve_placement(fabric.cluster(), hosts, tray, options.gpu_nics);
  const std::vector<int> host_indices = placement.hosts;  // every host, before domains fuse them
  std::vector<std::string> domain_warnings;
  // MNNVL: NCCL's nodes are the NVLink domains, and the model's too.
  std::optional<DomainView> fused;
  if (tray.nvlink_domain_nodes > 1 && options.nvlink_domains) {
    fused = fuse_nvlink_domains(hosts, placement, tray, *options.nvlink_domains);
    placement = std::move(fused->placement);
    domain_warnings = std::move(fused->warnings);
  } else if (tray.nvlink_domain_nodes > 1 && hosts.size() > 1) {
    domain_warnings.push_back("profile " + tray.name + " joins " + std::to_string(tray.nvlink_domain_nodes) +
                              " nodes in an NVLink domain, but no --nvlink-domains says which hosts share one: each "
                              "host is predicted as its own, as NCCL runs with MNNVL off");
  }
  const HardwareProfile& profile = fused ? fused->profile : tray;
  const Layout layout = make_layout(profile, static_cast<int>(placement.hosts.size()));
  const Collective coll = options.collective;

  Prediction out;
  out.hosts = hosts;
  out.profile = tray.name;
  out.routing = to_string(fabric.routing().kind());
  out.collective = coll;
  out.nodes = static_cast<int>(hosts.size());
  out.ranks = out.nodes * tray.gpus_per_node;
  out.channels = layout.channels;
  out.rails = layout.rails;
  if (fused) {
    out.nvlink_domains = layout.nodes;
    out.domain_gpus = layout.gpus_per_node;
  }
  out.warnings = placement.warnings;
  out.warnings.insert(out.warnings.end(), domain_warnings.begin(), domain_warnings.end());

  std::vector<Candidate> candidates;
  for (Algorithm a : kAlgorithmOrder) {
    if (options.algorithm && *options.algorithm != a) continue;
    for (Protocol p : kProtocolOrder)
      if (available(coll, a, p, profile, layout)) candidates.push_back({a, p});
  }
  if (candidates.empty()) {
    if (layout.ranks() < 2) {
      // One rank: nothing crosses a link; report the call overhead only.
      for (double bytes : options.sizes) {
        SizePrediction s;
        s.bytes = bytes;
        s.terms.launch = profile.calibration.launch_us;
        s.time_us = s.terms.total();
        s.algbw_gbs = s.time_us > 0 ? bytes / (1e3 * s.time_us) : 0;
        s.latency_bound = true;
        out.sizes.push_back(s);
      }
      out.warnings.push_back("one GPU: a collective moves no data");
      return out;
    }
    const Algorithm a = options.algorithm.value_or(Algorithm::Ring);
    throw InputError("--algo", 0, std::string("cannot run ") + to_string(a) + ": " + why_unavailable(a, coll, profile, layout));
  }

  // The jobs next door, each running what NCCL would choose at its size on its own nodes.
  std::vector<NeighbourJob> neighbours;
  if (!options.busy_jobs.empty()) {
    std::vector<char> taken(fabric.cluster().hosts.size(), 0);
    for (int h : host_indices) taken[h] = 1;
    SimulateOptions alone;
    alone.routing = options.routing;
    alone.gpu_nics = options.gpu_nics;
    alone.nvlink_domains = options.nvlink_domains;
    for (const BusyJob& job : options.busy_jobs) {
      NeighbourJob n;
      try {
        n.placement = resolve_placement(fabric.cluster(), job.hosts, tray, options.gpu_nics);
      } catch (const InputError& e) {
        throw InputError(options.busy_source, job.line, e.what());
      }
      for (size_t i = 0; i < n.placement.hosts.size(); ++i)
        if (taken[n.placement.hosts[i]]++)
          throw InputError(options.busy_source, job.line,
                           "expected every host in one job only; " + job.hosts[i] +
                               " is in the placement or an earlier busy job");
      // On an MNNVL placement a job next door leaves its domains through as many NICs.
      if (fused)
        n.placement = fuse_nvlink_domains(job.hosts, n.placement, tray, *options.nvlink_domains, layout.rails).placement;
      n.collective = job.collective;
      if (job.hosts.size() > 1 || tray.gpus_per_node > 1) {
        alone.collective = job.collective;
        alone.sizes = {job.bytes};
        n.algorithm = predict(fabric, job.hosts, tray, alone).sizes.front().algorithm;
      }
      neighbours.push_back(std::move(n));
    }
    out.busy_jobs = static_cast<int>(neighbours.size());
  }
  const Contention contention = simulate_contention(fabric, placement, profile, coll, neighbours);
  std::optional<Contention> by_itself;
  if (!neighbours.empty()) by_itself = simulate_contention(fabric, placement, profile, coll);
  auto bandwidth = [&](const Candidate& c, bool ideal) {
    const AlgorithmBandwidth& b = contention.by_algorithm[static_cast<int>(c.a)];
    return nccl_algorithm_bw(coll, c.a, c.p, ideal ? b.free_raw_bw : b.raw_bw, profile, layout);
  };

  const double factor = bus_factor(coll, out.ranks);  // nccl-tests' ranks: every GPU once
  for (double bytes : options.sizes) {
    // NCCL's choice: the fastest by its own estimate with ideal cables; first in NCCL's
    // order on a tie.
    const Candidate* chosen = nullptr;
    double estimate = INFINITY;
    for (const Candidate& c : candidates) {
      const double t = nccl_estimate_us(coll, c.a, c.p, bytes, bandwidth(c, true), profile, layout);
      if (t < estimate) {
        estimate = t;
        chosen = &c;
      }
    }
    const double best = predict_time(coll, chosen->a, chosen->p, bytes, bandwidth(*chosen, true), profile, layout).total();
    SizePrediction s;
    s.bytes = bytes;
    s.algorithm = chosen->a;
    s.protocol = chosen->p;
    s.terms = predict_time(coll, chosen->a, chosen->p, bytes, bandwidth(*chosen, false), profile, layout);
    s.time_us = s.terms.total();
    s.algbw_gbs = bytes / (1e3 * s.time_us);
    s.busbw_gbs = s.algbw_gbs * factor;
    s.ideal_busbw_gbs = bytes / (1e3 * best) * factor;
    s.latency_bound = s.terms.transfer + s.terms.fill < s.terms.launch + s.terms.latency + s.terms.sync;
    s.bottlenecks = contention.by_algorithm[static_cast<int>(chosen->a)].bottlenecks;
    s.bottleneck_count = contention.by_algorithm[static_cast<int>(chosen->a)].bottleneck_count;

    if (by_itself) {
      const AlgorithmBandwidth& b = by_itself->by_algorithm[static_cast<int>(chosen->a)];
      const double bw = nccl_algorithm_bw(coll, chosen->a, chosen->p, b.raw_bw, profile, layout);
      s.alone_busbw_gbs = bytes / (1e3 * predict_time(coll, chosen->a, chosen->p, bytes, bw, profile, layout).total()) * factor;
    }
    // Would another algorithm have done better on these cables?
    for (const Candidate& c : candidates) {
      const double t = predict_time(coll, c.a, c.p, bytes, bandwidth(c, false), profile, layout).total();
      if (t < s.time_us * 0.99 && (!s.better || t < s.better->time_us)) s.better = Choice{c.a, c.p, t};
    }
    out.sizes.push_back(std::move(s));
  }
  return out;
}

Prediction predict(const Cluster& cluster, const std::vector<std::string>& hosts,
                   const HardwareProfile& profile, const SimulateOptions& options) {
  const FabricModel fabric(cluster, options.routing);
  return predict(fabric, hosts, profile, options);
}

std::vector<double> parse_sizes(const std::string& list, const std::string& option) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    while (!item.empty() && item.back() == ' ') item.pop_back();
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    const std::string original = item;
    auto fail = [&] {
      throw InputError(option, 0,
                       "expected sizes like 1K,1M,16M,256M,1G,8G (bytes, K/M/G/T = 2^10/2^20/2^30/2^40), not `" +
                           original + "`");
    };
    if (item.empty()) fail();
    if (item.size() > 2 && item.compare(item.size() - 2, 2, "iB") == 0) item.resize(item.size() - 2);
    else if (item.size() > 1 && item.back() == 'B') item.pop_back();
    double scale = 1;
    switch (item.empty() ? '\0' : item.back()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1048576.0; break;
      case 'G': case 'g': scale = 1073741824.0; break;
      case 'T': case 't': scale = 1099511627776.0; break;
      default: break;
    }
    if (scale != 1) item.pop_back();
    if (item.empty() || item.find_first_not_of("0123456789.") != std::string::npos) fail();
    double value = 0;
    try {
      value = std::stod(item) * scale;
    } catch (const std::exception&) {
      fail();
    }
    if (!(value >= 1) || value > 1e15) fail();
    out.push_back(std::floor(value));
  }
  return out;
}

std::string format_size(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = bytes;
  while (u < 4 && v >= 1024 && std::fmod(v, 1024) == 0) {
    v /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
  return buf;
}

}  // namespace slurmtopo
