#include "simulate/whatif/whatif_plan.h"

#include <algorithm>
#include <memory>

#include "base/input_error.h"
#include "base/numbers.h"
#include "graph/input_match.h"
#include "simulate/collective/placement_costs.h"
#include "simulate/collective/prediction.h"
#include "simulate/scheduler/slurm_nodes.h"
#include "simulate/whatif/errored_cables.h"
#include "simulate/whatif/swf_workload.h"
#include "simulate/whatif/synthetic_workload.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_conf.h"

namespace slurmtopo {

namespace {

std::vector<int> job_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::string part;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (at == text.size() || text[at] == ',') {
      sizes.push_back(static_cast<int>(parse_whole_number("-N", part, 1)));
      part.clear();
    } else {
      part += text[at];
    }
  }
  return sizes;
}

WhatifRequest request_of(const WhatifArguments& a) {
  if (!a.workload.empty() && a.synthetic > 0)
    throw InputError("--workload", 0, "expected either --workload or --synthetic, not both");
  const bool replay = !a.workload.empty() || a.synthetic > 0;
  if (a.sizes.empty() && !replay) throw InputError("-N", 0, "expected the job size (-N COUNT[,COUNT...]) or a workload");
  WhatifRequest r;
  if (!a.sizes.empty()) r.sizes = job_sizes(a.sizes);
  r.seed = a.seed;
  r.slurm_release = release_line(a.release);
  r.samples = a.samples;
  r.max_job_test = a.max_job_test;
  if (!a.busy.empty()) r.busy = expand_hostlist_at(a.busy, "--busy");
  if (!a.drain.empty()) r.edits.drain = expand_hostlist_at(a.drain, "--drain");
  r.edits.drain_switches = a.drain_switches;
  for (const auto& c : a.remove_cables) r.edits.remove_cables.push_back(parse_cable_ref(c));
  r.edits.add_spines = a.add_spines;
  r.edits.topology_file = a.topology;
  return r;
}

// The "after" case: the edited fabrics rebuilt into a cluster, hosts that lost their HCA cable
// down (a partition node among them is drained).
WhatifCase after_edits(const Cluster& cluster, const WhatifArguments& a, const WhatifRequest& r,
                       const WhatifSlurm& slurm, const std::vector<std::string>& names, RoutingKind routing) {
  WhatifCaseSpec spec;
  spec.drained = r.edits.drain;
  spec.topology_file = r.edits.topology_file;
  spec.lost_hosts_are_down = true;
  spec.routing = routing;
  std::vector<std::string> notes;
  std::optional<Cluster> edited;
  if (r.edits.changes_fabric()) {
    EditedFabrics e = edit_fabrics(cluster, r.edits);
    // The counters chose the edit; the "after" fabric is judged by its shape only (read again,
    // the ports of the cables taken out would only count as uncabled).
    ClusterInputs rebuild = a.inputs;
    rebuild.counter_files.clear();
    for (Fabric& f : e.fabrics) f.counters = {};
    edited = build_cluster(std::move(e.fabrics), load_cluster_options(rebuild));
    notes = std::move(e.notes);
    if (!e.hosts_cut.empty())
      notes.push_back(std::to_string(e.hosts_cut.size()) + " node" + (e.hosts_cut.size() > 1 ? "s" : "") +
                      (e.hosts_cut.size() > 1 ? " lost an HCA cable and count as down"
                                              : " lost an HCA cable and counts as down"));
    for (const auto& h : e.hosts_cut)
      if (std::find(names.begin(), names.end(), h) != names.end()) spec.drained.push_back(h);
  } else {
    edited = cluster;
  }
  WhatifCase after = make_whatif_case(std::move(*edited), slurm, spec);
  after.notes.insert(after.notes.begin(), notes.begin(), notes.end());
  return after;
}

}  // namespace

WhatifResult run_whatif(const WhatifArguments& a, const UnitProgress& progress) {
  if (a.inputs.fabric_files.empty()) throw InputError("whatif", 0, "expected --fabric (the predicted busbw needs it)");
  if (a.profile.empty()) throw InputError("whatif", 0, "expected --profile (a shipped name or a YAML file)");
  if (!a.inputs.counter_files.empty() && !a.drain_errored)
    throw InputError("--counters", 0,
                     "whatif reads port counters only to drain the cables they condemn: add --drain-errored, or "
                     "leave --counters out");
  WhatifRequest request = request_of(a);

  Cluster cluster = load_cluster(a.inputs);
  if (a.drain_errored) request.edits.errored_cables = cables_to_drain(cluster);
  WhatifSlurm slurm;
  std::vector<std::string> names;
  if (!a.nodes.empty()) names = expand_hostlist_at(a.nodes, "--nodes");
  if (!a.slurm_conf.empty()) {
    slurm.nodes = slurm_conf_nodes(load_slurm_conf(a.slurm_conf), a.slurm_conf, names, a.weights, "");
    names.clear();
    for (const auto& n : slurm.nodes) names.push_back(n.name);
  } else {
    if (names.empty()) names = cluster.compute_hosts();  // storage and service hosts only when --nodes names them
    slurm.nodes = slurm_nodes(names, a.weights, "1");
  }
  std::vector<std::string> warnings;
  if (auto f = match_slurm_nodes(cluster, names, a.slurm_conf.empty() ? "--nodes" : a.slurm_conf, cluster.guesses,
                                 false))
    warnings.push_back(f->detail + "; they count as down here");
  slurm.params = parse_topology_params(a.topology_param);
  slurm.release = a.release.release;
  const RoutingKind routing = parse_routing_kind(a.routing);
  const HardwareProfile profile = load_profile(a.profile);
  const double bytes = parse_sizes(a.size, "--size").front();

  std::optional<WhatifCase> after;
  if (!request.edits.empty()) after = after_edits(cluster, a, request, slurm, names, routing);
  std::vector<std::string> sources;
  for (const Fabric& f : cluster.fabrics) sources.push_back(f.source);
  WhatifCaseSpec before_spec;
  before_spec.routing = routing;
  before_spec.lost_hosts_are_down = true;  // said in the warnings above
  const WhatifCase before = make_whatif_case(std::move(cluster), slurm, before_spec);

  if (!a.workload.empty())
    request.workload = read_swf(a.workload, a.cpus_per_node, static_cast<int>(before.node_names().size()));
  else if (a.synthetic > 0)
    request.workload = synthetic_workload({a.synthetic, static_cast<int>(before.node_names().size()), a.seed, 0.9});

  HostDomains domains;
  if (!a.nvlink_domains.empty()) domains = load_host_domains(a.nvlink_domains);
  const HostDomains* domains_given = a.nvlink_domains.empty() ? nullptr : &domains;
  PlacementCosts before_costs(*before.fabric, profile, bytes, domains_given);
  std::optional<PlacementCosts> after_costs;
  if (after) after_costs.emplace(*after->fabric, profile, bytes, domains_given);
  WhatifInputs in{&before, after ? &*after : nullptr, &before_costs, after_costs ? &*after_costs : nullptr, 2};

  WhatifResult out;
  out.header = whatif_run_header(request, in, sources);
  if (!warnings.empty()) out.header["warnings"] = warnings;
  const int total = whatif_units(request);
  std::vector<int> units;
  if (!a.shard.empty()) {
    out.shard = parse_shard(a.shard);
    units = shard_units(total, *out.shard);
  } else {
    for (int u = 0; u < total; ++u) units.push_back(u);
  }
  out.records = run_whatif_units(request, in, units, progress);
  return out;
}

}  // namespace slurmtopo
