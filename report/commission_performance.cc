// The performance section's model: simulate's predict() (simulate/collective/prediction.h)
// for allreduce over one node, one group and every grouped host; and, for what a job spread
// over leaves loses against one packed on a leaf, the what-if policies as `slurmtopo whatif
// -N SIZES --busy HOSTS` runs them (simulate/whatif/whatif_run.h: Slurm, no topology, best,
// random, each placement costed at 1 GiB). Two hand-built placements cannot show it: one host
// per group crosses the spines with a single flow per rail, which a non-blocking fabric
// carries at full rate (the report showed 0 % loss); the policies place whole jobs, whose
// rings share leaf uplinks. The physical limit drawn with each curve is
// the profile's line rate the busbw of that placement cannot exceed: NVLink (or PCIe) inside
// one node, and across nodes the NIC line rate per GPU when that is lower.
#include <algorithm>
#include <unordered_set>

#include "base/input_error.h"
#include "report/commission_parts.h"
#include <map>

#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/placement_costs.h"
#include "simulate/collective/node_profile.h"
#include "simulate/collective/nvlink_domain.h"
#include "simulate/collective/prediction.h"
#include "simulate/network/fabric_model.h"
#include "simulate/scheduler/slurm_nodes.h"
#include "simulate/whatif/whatif_run.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

std::vector<double> chart_sizes() {
  std::vector<double> s;
  for (double b = 1024; b <= 8589934592.0; b *= 4) s.push_back(b);
  s.push_back(8589934592.0);
  return s;
}

// docs/simulator.md's physical limits: a ring's busbw within a node stays under a GPU's NVLink
// (or PCIe) line rate; NVLS moves (1 + 1/G)·algbw through a port, so its busbw limit is the
// line rate × 2(G−1)/(G+1); across N nodes busbw stays under the node's NICs' line rates
// × N/(N−1) × (n−1)/n.
// Where the prediction fused NVLink domains (`domains`), a node of the model is a domain: `gpus`
// and `nodes` are NCCL's (a domain's GPUs, the domains), and `fabric_nics` the NICs between them.
std::pair<double, std::string> limit(const HardwareProfile& p, int gpus, int nodes, int fabric_nics, bool domains) {
  const int g = std::max(gpus, 1);
  double inside = p.nvlink_links > 0 ? p.nvlink_line_gbs() : p.pcie_line_gbs();
  std::string inside_what = p.nvlink_links > 0 ? "NVLink line rate" : "PCIe line rate";
  if (p.nvls && g > 1) {
    inside *= 2.0 * (g - 1) / (g + 1);
    inside_what = "NVLink line rate through NVLS";
  }
  if (nodes <= 1) return {inside, inside_what};
  // The NICs the fabric shows per host, where it shows them: a profile of 8 NICs on hosts
  // cabled with 4 would draw a limit no job can reach.
  const int nics = fabric_nics > 0 ? fabric_nics : p.nics_per_node;
  // Any allreduce sends 2(N−1)/N of the data out of every node (N nodes): busbw, counted over
  // its n ranks, can reach the NICs' line rate × N/(N−1) × (n−1)/n (twice it on two nodes).
  const double ranks = static_cast<double>(g) * nodes;
  const double nic = p.nic_line_gbs() * nics * nodes / (nodes - 1.0) * (ranks - 1) / ranks;
  return nic < inside ? std::pair{nic, std::string(domains ? "the NVLink domain's " : "the node's ") + std::to_string(nics) +
                                           " NICs' line rate across " + std::to_string(nodes) +
                                           (domains ? " domains" : " nodes")}
                      : std::pair{inside, inside_what};
}

// The job sizes the policies are asked about: one group's hosts (the most common group size,
// a job that can be packed under one Slurm leaf), then twice that (one that must span
// groups), each only when that many partition nodes are free.
std::vector<int> policy_sizes(const Cluster& c, int free_nodes) {
  std::map<int, int> by_size;
  for (const auto& g : c.groups) ++by_size[static_cast<int>(g.hosts.size())];
  int group = 0, most = 0;
  for (auto [size, n] : by_size)
    if (n > most) group = size, most = n;
  std::vector<int> sizes;
  for (int n : {group, 2 * group})
    if (n >= 2 && n <= free_nodes) sizes.push_back(n);
  return sizes;
}

PolicyJob policy_job(const nlohmann::ordered_json& record) {
  PolicyJob job;
  job.nodes = record["job_nodes"].get<int>();
  for (const auto& p : record["policies"]) {
    PolicyPlacementRow row;
    row.policy = p["policy"].get<std::string>();
    row.started = p["started"].get<bool>();
    if (!row.started) {
      row.reason = p["reason"].get<std::string>();
    } else {
      row.hostlist = p["hostlist"].get<std::string>();
      row.leaves = p["leaves"].get<int>();
      row.groups = p["groups"].get<int>();
      if (p["busbw_gbs"].is_number()) row.busbw_gbs = p["busbw_gbs"].get<double>();
    }
    job.policies.push_back(std::move(row));
  }
  for (size_t i = 0; i < job.policies.size(); ++i) {
    const PolicyPlacementRow& row = job.policies[i];
    if (!row.busbw_gbs) continue;
    if (row.policy == "best") job.packed = static_cast<int>(i);
    if (job.spread < 0 || row.leaves > job.policies[job.spread].leaves) job.spread = static_cast<int>(i);
  }
  if (job.packed >= 0 && *job.policies[job.packed].busbw_gbs > 0)
    for (auto& row : job.policies)
      if (row.busbw_gbs) row.loss = 1 - *row.busbw_gbs / *job.policies[job.packed].busbw_gbs;
  return job;
}

}  // namespace

std::optional<Performance> plan_performance(Cluster cluster, const std::string& profile_name, const NodeSet* nodes,
                                            const NodeJoin* join, const std::vector<Finding>& findings,
                                            const NvlinkDomains* domains) {
  const Cluster& c = cluster;
  std::unordered_set<std::string> named;
  for (const Finding& f : findings)
    for (auto& n : finding_names(f.subject)) named.insert(std::move(n));
  // A host owning an unnamed HCA (its likely host from the port, graph/hca_guesses.h) lacks
  // that rail in the model: a prediction over it would route nothing there. Its finding is the
  // leaf's unresolved-hca line, which names the leaf, so it is added here.
  for (const HcaGuess& g : cluster.guesses.guesses) named.insert(g.host);
  std::vector<std::string> grouped;
  int left_out = 0;
  for (const Host& h : c.hosts) {
    if (h.group < 0 || !h.compute()) continue;  // storage and service hosts run no job
    if (named.count(h.name)) ++left_out;
    else grouped.push_back(h.name);
  }
  if (grouped.empty() || (profile_name.empty() && (!nodes || nodes->nodes.empty()))) return std::nullopt;

  Performance perf;
  HardwareProfile profile;
  GpuNics gpu_nics;
  SimulateOptions options;
  options.sizes = chart_sizes();
  if (!profile_name.empty()) {
    profile = load_profile(profile_name);
  } else {
    std::optional<NodeProfile> from_nodes = profile_from_nodes_or_warn(*nodes, *join, c, perf.warnings, "no prediction: ");
    if (!from_nodes) return perf;
    profile = std::move(from_nodes->profile);
    gpu_nics = std::move(from_nodes->gpu_nics);
    options.gpu_nics = &gpu_nics;
  }
  perf.profile = profile.name;
  perf.routing = to_string(options.routing);
  HostDomains host_domain;
  const bool mnnvl = profile.nvlink_domain_nodes > 1 && domains;
  if (mnnvl) {
    host_domain = host_domains(*domains);
    options.nvlink_domains = &host_domain;
  }
  // Compute HCAs per host as the fabric shows them (side and storage rails aside), against
  // the NICs the profile predicts with.
  {
    std::map<int, int> by_count;
    std::vector<int> counts;
    for (const std::string& name : grouped) {
      int n = 0;
      for (int i : c.hosts[c.host_index(name)].hcas) {
        const Hca& hca = c.hcas[i];
        if (hca.switches.empty()) continue;
        if (hca.position >= 0 && c.rails[hca.position].side) continue;
        ++n;
      }
      ++by_count[n];
      counts.push_back(n);
    }
    int usual = 0, most = 0;
    for (auto [n, hosts] : by_count)
      if (hosts > most) usual = n, most = hosts;
    perf.fabric_nics = usual;
    if (usual > 0 && usual != profile.nics_per_node) {
      perf.mismatched_hosts = most;
      perf.profile_mismatch = "profile " + profile.name + " has " + std::to_string(profile.nics_per_node) +
                              " NICs per node; the fabric shows " + std::to_string(usual) + " compute HCAs on " +
                              std::to_string(most) + " of its " + std::to_string(grouped.size()) +
                              " compute hosts: the limits drawn use the fabric's " + std::to_string(usual) +
                              "; give a profile of this hardware (--profile, or --nodes-dir) for predictions to trust";
    }
  }
  if (left_out)
    perf.warnings.push_back(std::to_string(left_out) + (left_out == 1 ? " host" : " hosts") +
                            " named by a finding left out of every prediction");
  // Per group, its hosts without findings, in Slurm's order.
  std::vector<std::vector<std::string>> healthy(c.groups.size());
  for (size_t k = 0; k < c.groups.size(); ++k)
    for (int h : c.groups[k].hosts)
      if (!named.count(c.hosts[h].name) && c.hosts[h].compute()) healthy[k].push_back(c.hosts[h].name);
  size_t first = 0;  // the first group with two healthy hosts
  while (first < healthy.size() && healthy[first].size() < 2) ++first;
  const std::vector<std::string> group_hosts = first < healthy.size() ? healthy[first] : std::vector<std::string>{};
  const std::string group_name = first < healthy.size() ? c.groups[first].name : "";
  const bool several_groups = c.groups.size() > 1;

  // The what-if case as `slurmtopo whatif` makes it by default: the grouped hosts in Slurm's
  // order, placed with the emitted topology.conf; the hosts named by a finding are --busy.
  // Its fabric model (the same routing) serves the curves too.
  std::vector<std::string> partition, busy;
  for (const Host& h : c.hosts) {
    if (h.group < 0 || !h.compute()) continue;
    partition.push_back(h.name);
    if (named.count(h.name)) busy.push_back(h.name);
  }
  const std::vector<int> sizes = policy_sizes(c, static_cast<int>(partition.size() - busy.size()));
  WhatifSlurm slurm;
  slurm.nodes = slurm_nodes(partition, "", "1");
  WhatifCaseSpec spec;
  spec.routing = options.routing;
  const WhatifCase wcase = make_whatif_case(std::move(cluster), slurm, spec);
  const FabricModel& fabric = *wcase.fabric;

  auto curve = [&](const std::string& name, const std::vector<std::string>& hosts) {
    try {
      const Prediction p = predict(fabric, hosts, profile, options);
      Curve k;
      k.name = name;
      k.nodes = static_cast<int>(hosts.size());
      if (p.nvlink_domains > 0) {
        std::tie(k.limit_gbs, k.limit_what) = limit(profile, p.domain_gpus, p.nvlink_domains, p.rails, true);
      } else {
        std::tie(k.limit_gbs, k.limit_what) = limit(profile, profile.gpus_per_node, k.nodes, perf.fabric_nics, false);
      }
      for (const auto& s : p.sizes) k.bytes.push_back(s.bytes), k.busbw_gbs.push_back(s.busbw_gbs);
      perf.curves.push_back(std::move(k));
      for (const auto& w : p.warnings) perf.warnings.push_back(name + ": " + w);
    } catch (const InputError& e) {
      perf.warnings.push_back(name + ": no prediction: " + e.what());
    }
  };
  curve("one node (" + grouped.front() + ")", {grouped.front()});
  if (!group_hosts.empty())
    curve("one group (" + group_name + ", " + std::to_string(group_hosts.size()) + " nodes)", group_hosts);
  if (mnnvl) {
    // Per NVLink domain, its hosts without findings, in the order the domains first appear.
    std::vector<std::vector<std::string>> by_domain;
    for (const DomainGroup& g : group_by_domain(grouped, host_domain)) {
      if (!g.known) continue;
      by_domain.emplace_back();
      for (int i : g.hosts) by_domain.back().push_back(grouped[i]);
    }
    std::stable_sort(by_domain.begin(), by_domain.end(),
              [](const auto& a, const auto& b) { return a.size() > b.size(); });  // whole racks first, stable
    if (!by_domain.empty() && by_domain[0].size() > 1)
      curve("one NVLink domain (" + std::to_string(by_domain[0].size()) + " nodes)", by_domain[0]);
    if (by_domain.size() > 1 && by_domain[1].size() > 1) {
      std::vector<std::string> two = by_domain[0];
      two.insert(two.end(), by_domain[1].begin(), by_domain[1].end());
      curve("two NVLink domains (" + std::to_string(two.size()) + " nodes)", two);
    }
  }
  if (several_groups) curve("whole fabric (" + std::to_string(grouped.size()) + " nodes)", grouped);

  if (sizes.empty()) return perf;
  WhatifRequest request;
  request.sizes = sizes;
  request.busy = busy;
  try {
    PlacementCosts costs(fabric, profile, 1073741824.0, mnnvl ? &host_domain : nullptr);
    const WhatifInputs in{&wcase, nullptr, &costs, nullptr, 2};
    std::vector<int> units(sizes.size());
    for (size_t u = 0; u < units.size(); ++u) units[u] = static_cast<int>(u);
    SpreadPacked sp;
    sp.bytes = costs.bytes();
    sp.seed = request.seed;
    sp.placed_with = wcase.placed_with;
    sp.busy = compress_hostlist(busy);
    for (const auto& record : run_whatif_units(request, in, units)) sp.jobs.push_back(policy_job(record));
    perf.spread_packed = std::move(sp);
  } catch (const InputError& e) {
    perf.warnings.push_back(std::string("packed against spread: no prediction: ") + e.what());
  }
  return perf;
}

}  // namespace slurmtopo
