#include "simulate/measured/measured_causes.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/input_error.h"
#include "base/text.h"
#include "graph/cable_names.h"
#include "graph/finding_names.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

std::string at(const std::string& file, int line) { return line > 0 ? file + ":" + std::to_string(line) : file; }

// The run's hosts a finding's subject names.
std::vector<std::string> run_hosts_named(const std::string& subject, const std::set<std::string>& hosts) {
  std::vector<std::string> out;
  for (std::string& h : finding_names(subject))
    if (hosts.count(h)) out.push_back(std::move(h));
  return out;
}

// 1. Sockets where the run spans nodes.
void socket_causes(std::vector<Cause>& out, const MeasuredRun& run) {
  if (run.nodes < 2) return;
  std::vector<std::string> hosts;
  std::string detail;
  for (const HostEvidence& e : run.evidence) {
    if (e.network != "Socket" && e.socket_channels == 0) continue;
    hosts.push_back(e.host);
    if (!detail.empty()) continue;
    detail = e.host + ": NCCL used network Socket (" + at(e.source, e.network_line) + ")";
    if (e.socket_channels) detail += ", " + counted(e.socket_channels, "channel", "channels") + " via NET/Socket";
    if (e.no_verbs) detail += "; it could not open libibverbs: the job's environment (its container) lacks the verbs "
                              "library";
    else if (e.no_ib_device) detail += "; NET/IB found no device: no ACTIVE port, or none NCCL_IB_HCA lets through";
    detail += ". Traffic goes over TCP on " + (e.socket_devices.empty() ? std::string("the bootstrap interface")
                                                                         : join_list(e.socket_devices)) +
              " instead of RDMA";
  }
  if (hosts.empty()) return;
  out.push_back({1, MeasuredKind::Sockets, compress_hostlist(hosts), detail, hosts});
}

// 2. GPUDirect RDMA off.
void gdr_causes(std::vector<Cause>& out, const MeasuredRun& run) {
  if (run.nodes < 2) return;
  std::vector<std::string> hosts;
  std::string detail;
  for (const HostEvidence& e : run.evidence) {
    if (e.network == "Socket") continue;  // its traffic never reaches an HCA: cause 1 says so
    const int plain = e.ib_channels - e.gdr_channels;
    // NCCL checks GPUDirect for GPU/HCA pairs it then leaves unused (graph/paths.cc): where every
    // NET/IB channel shows GDRDMA, a "Disabled" line is about such a pair. Only without channel
    // lines is it the evidence.
    if (plain <= 0 && (e.gdr_disabled.empty() || e.ib_channels > 0)) continue;
    hosts.push_back(e.host);
    if (!detail.empty()) continue;
    detail = e.host + ": ";
    if (plain > 0)
      detail += std::to_string(plain) + " of " + counted(e.ib_channels, "NET/IB channel", "NET/IB channels") +
                " without GDRDMA (" + at(e.source, e.channel_line) + ")";
    if (!e.gdr_disabled.empty()) {
      const NcclGdrState& g = e.gdr_disabled.front();
      detail += std::string(plain > 0 ? "; " : "") + "GPU Direct RDMA disabled for " +
                (g.gpu.empty() ? std::string("a GPU") : "GPU " + g.gpu) + " / HCA " + std::to_string(g.hca) +
                (g.distance >= 0 ? " (PCIe distance " + std::to_string(g.distance) + " > " + std::to_string(g.limit) + ")"
                                 : std::string()) +
                " (" + at(e.source, g.line) + ")";
    }
    detail += ": the traffic bounces through host memory (load nvidia-peermem, or use a driver and NCCL with DMA-BUF; "
              "check ACS on the PCIe switches)";
  }
  if (hosts.empty()) return;
  out.push_back({2, MeasuredKind::NoGdr, compress_hostlist(hosts), detail, hosts});
}

// 3. The HCA each rank's channels leave through, against its GPU's nearest (node data) and
// against the rail its peers at the same local position use.
void hca_causes(std::vector<Cause>& out, const MeasuredRun& run, const MeasuredContext& ctx) {
  if (run.nodes < 2) return;
  const Cluster& c = ctx.fabric->cluster();
  std::vector<std::string> details;
  int ranks = 0;
  std::set<std::string> hosts;
  // The nearest, where node exports are given.
  if (ctx.nodes && ctx.gpu_nics) {
    for (const HostEvidence& e : run.evidence) {
      auto node = std::find_if(ctx.nodes->nodes.begin(), ctx.nodes->nodes.end(),
                               [&](const NodeInventory& n) { return n.hostname == e.host; });
      auto layout = std::find(ctx.gpu_nics->hosts.begin(), ctx.gpu_nics->hosts.end(), e.host);
      if (node == ctx.nodes->nodes.end() || layout == ctx.gpu_nics->hosts.end()) continue;
      const auto& gpu_hca = ctx.gpu_nics->gpu_hca[layout - ctx.gpu_nics->hosts.begin()];
      for (const RankEvidence& r : e.ranks) {
        if (r.bus_id.empty() || r.hcas.empty()) continue;
        auto gpu = std::find_if(node->gpus.begin(), node->gpus.end(),
                                [&](const Gpu& g) { return g.pci_busid == r.bus_id; });
        if (gpu == node->gpus.end() || gpu->index >= static_cast<int>(gpu_hca.size())) continue;
        const int hca = gpu_hca[gpu->index];
        if (hca < 0) continue;
        const std::string& nearest = c.hcas[hca].rail;
        if (std::find(r.hcas.begin(), r.hcas.end(), nearest) != r.hcas.end()) continue;
        ++ranks;
        hosts.insert(e.host);
        if (details.size() < 3)
          details.push_back(e.host + " rank " + std::to_string(r.rank) + " (GPU " + std::to_string(gpu->index) + ", " +
                            r.bus_id + ") sent through " + join_list(r.hcas) + ", its nearest is " + nearest);
      }
    }
  }
  // The rail: rank k of every host (by its position on its host) should leave through the same
  // rail; a host whose position-k rank uses another rail sends it across the spines.
  std::map<int, std::map<int, std::vector<std::string>>> rail_of;  // position → rail → hosts
  std::map<std::string, std::map<int, int>> pos_rank;
  for (const NcclTestsDevice& d : run.test.devices) {
    const int pos = static_cast<int>(pos_rank[d.host].size());
    pos_rank[d.host][pos] = d.rank;
  }
  for (const HostEvidence& e : run.evidence) {
    const int h = c.host_index(e.host);
    if (h < 0) continue;
    for (const auto& at_pos : pos_rank[e.host]) {
      const int pos = at_pos.first, rank = at_pos.second;  // clang 14 cannot capture a structured binding
      auto r = std::find_if(e.ranks.begin(), e.ranks.end(), [&](const RankEvidence& x) { return x.rank == rank; });
      if (r == e.ranks.end() || r->hcas.size() != 1) continue;
      for (int i : c.hosts[h].hcas)
        if (c.hcas[i].rail == r->hcas.front() && c.hcas[i].position >= 0)
          rail_of[pos][c.hcas[i].position].push_back(e.host);
    }
  }
  for (const auto& [pos, rails] : rail_of) {
    if (rails.size() < 2) continue;
    int usual = -1;
    size_t most = 0;
    for (const auto& [rail, hs] : rails)
      if (hs.size() > most) usual = rail, most = hs.size();
    for (const auto& [rail, hs] : rails) {
      if (rail == usual) continue;
      ranks += static_cast<int>(hs.size());
      hosts.insert(hs.begin(), hs.end());
      if (details.size() < 3)
        details.push_back(compress_hostlist(hs) + ": the rank at position " + std::to_string(pos) + " sent on " +
                          c.rails[rail].name + ", its peers on " + c.rails[usual].name +
                          ": its traffic crosses the spines");
    }
  }
  if (!ranks) return;
  out.push_back({3, MeasuredKind::NotNearest, compress_hostlist({hosts.begin(), hosts.end()}),
                        counted(ranks, "rank", "ranks") + " off their HCA: " + join_list(details, "; ") +
                            " (check NCCL_IB_HCA and NCCL_TOPO_FILE in the job)",
                        {hosts.begin(), hosts.end()}});
}

// 4. Node findings on the run's hosts.
void node_causes(std::vector<Cause>& out, const std::set<std::string>& hosts, const MeasuredContext& ctx) {
  if (!ctx.node_findings) return;
  for (const NodeAnomaly& a : *ctx.node_findings) {
    const FindingKind& k = finding_kind(a.kind);
    if (k.severity != Severity::Fail) continue;
    std::vector<std::string> named = run_hosts_named(a.subject, hosts);
    if (named.empty()) continue;
    out.push_back({4, MeasuredKind::Below, a.subject, std::string(k.name) + " " + a.subject + ": " + a.detail,
                   std::move(named)});
  }
}

// 5. Cables on the run's routes: errors above threshold, or degraded. The routes are those of
// each rail between ring neighbours and, for a few hosts, between every pair (trees).
void cable_causes(std::vector<Cause>& out, const MeasuredRun& run, const MeasuredContext& ctx, const HardwareProfile& p) {
  const Cluster& c = ctx.fabric->cluster();
  if (run.hosts.size() < 2) return;
  Placement placement;
  try {
    placement = resolve_placement(c, run.hosts, p, ctx.gpu_nics);
  } catch (const InputError&) {
    return;
  }
  const size_t n = placement.hosts.size();
  std::set<std::pair<int, int>> on_path;
  auto walk = [&](size_t i, size_t j) {
    for (size_t r = 0; r < placement.rails[i].size() && r < placement.rails[j].size(); ++r) {
      const int a = placement.rails[i][r], b = placement.rails[j][r];
      if (a < 0 || b < 0) continue;
      for (const PathShare& s : ctx.fabric->routing().route(a, b))
        for (const DirectedLink& l : s.links) on_path.insert({l.fabric, l.link});
    }
  };
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && (n <= 16 || j == (i + 1) % n || i == 0 || j == 0)) walk(i, j);
  for (const CableEndHealth& h : c.cable_health) {
    if (!h.over || !on_path.count({h.fabric, h.link})) continue;
    out.push_back({5, MeasuredKind::Below, h.cable,
                          h.cable + " is on the run's routes and counts errors above threshold (" +
                              c.counter_sources[h.source].source + "): retransmits slow every flow through it",
                   {}});
  }
  std::set<std::string> names;
  const CableNames namer(c);
  for (auto [f, l] : on_path) {
    const auto [va, vb] = c.link_vertices[f][l];
    if (va < 0 || vb < 0) continue;
    const Link& link = c.fabrics[f].links[l];
    names.insert(namer.cable(va, link.a.port, vb, link.b.port));
    names.insert(namer.cable(vb, link.b.port, va, link.a.port));
  }
  for (const Anomaly& a : c.anomalies)
    if (a.kind == Anomaly::Kind::DegradedLink && names.count(a.subject))
      out.push_back({5, MeasuredKind::Below, a.subject, "degraded-link " + a.subject + " on the run's routes: " + a.detail,
                     {}});
}

// 6. Crossed or miscabled rails on the run's hosts.
void rail_causes(std::vector<Cause>& out, const std::set<std::string>& hosts, const Cluster& c) {
  for (const Anomaly& a : c.anomalies) {
    if (a.kind != Anomaly::Kind::CrossedRails && a.kind != Anomaly::Kind::MiscabledRail) continue;
    std::vector<std::string> named = run_hosts_named(a.subject, hosts);
    if (named.empty()) continue;
    out.push_back({6, MeasuredKind::Below, a.subject,
                   std::string(to_string(a.kind)) + " " + a.subject + ": " + a.detail, std::move(named)});
  }
}

}  // namespace

std::vector<Cause> find_causes(const MeasuredRun& run, const MeasuredContext& ctx, const HardwareProfile* predicted_with) {
  std::vector<Cause> out;
  const std::set<std::string> hosts(run.hosts.begin(), run.hosts.end());
  socket_causes(out, run);
  gdr_causes(out, run);
  hca_causes(out, run, ctx);
  node_causes(out, hosts, ctx);
  if (predicted_with) cable_causes(out, run, ctx, *predicted_with);
  rail_causes(out, hosts, ctx.fabric->cluster());
  std::stable_sort(out.begin(), out.end(), [](const Cause& a, const Cause& b) { return a.order < b.order; });
  return out;
}

}  // namespace slurmtopo
