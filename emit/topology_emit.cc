#include "emit/topology_emit.h"

#include <algorithm>
#include <map>
#include <optional>

#include "base/text.h"
#include "base/files.h"
#include "base/input_error.h"
#include "emit/write_guard.h"
#include "graph/input_match.h"
#include "slurm/hostlist.h"
#include "slurm/installed_release.h"
#include "slurm/slurm_conf.h"

namespace slurmtopo {

namespace {

std::string listed(std::vector<std::string> names) {
  std::string list = compress_hostlist(std::move(names));
  return list.size() > 300 ? list.substr(0, 300) + "…" : list;
}

ParsedTopology read_topology(const std::string& path) {
  std::string text;
  if (!read_file_if_exists(path, text)) throw InputError(path, 0, "cannot read the current topology file");
  return comparable_topology(text, path);
}

std::vector<std::string> input_warnings(const Cluster& cluster, const std::optional<std::vector<std::string>>& slurm_nodes,
                                        const std::string& slurm_source) {
  std::vector<std::string> w;
  int unresolved = 0;
  for (const auto& h : cluster.hcas) unresolved += !h.unresolved.empty();
  if (unresolved)
    w.push_back(counted(unresolved, "HCA has", "HCAs have") + " no usable host name (see slurmtopo inspect)" +
                (cluster.guesses.guesses.empty()
                     ? std::string()
                     : "; " + std::to_string(cluster.guesses.guesses.size()) +
                           " have a likely host from their port: `slurmtopo inspect --suggest-map FILE` writes them "
                           "as a node-name-map to review and pass back with --node-name-map"));
  if (cluster.name_map.entries > 0 && cluster.name_map.matched == 0)
    w.push_back("the name map " + cluster.name_map.source + " matches nothing in the fabric (" +
                counted(cluster.name_map.entries, "entry", "entries") + ", none of them a GUID of the " +
                counted(cluster.hcas.size(), "HCA", "HCAs") + " swept): a map of another fabric?");
  // Service hosts are left out unless Slurm's list names them; then they are placed, on the
  // leaves they reach, and the admin should know they are not built like their unit's hosts.
  std::vector<std::string> service;
  if (slurm_nodes)
    for (const Anomaly& a : cluster.anomalies)
      if (a.kind == Anomaly::Kind::PartialHost && std::count(slurm_nodes->begin(), slurm_nodes->end(), a.subject))
        service.push_back(a.subject);
  if (!service.empty())
    w.push_back(slurm_source + " names " + counted(service.size(), "service host", "service hosts") + " " +
                listed(service) + (service.size() == 1 ? ", which reaches" : ", which reach") +
                " at most half its unit's rails: placed on the leaves it reaches");
  if (slurm_nodes)
    if (auto f = match_slurm_nodes(cluster, *slurm_nodes, slurm_source, cluster.guesses, false)) w.push_back(f->detail);
  return w;
}

}  // namespace

EmitTopologyResult emit_topology(const EmitTopologyRequest& r) {
  TopologyRequest request;
  request.format = parse_topology_format(r.format);
  request.plugin = parse_topology_plugin(r.plugin);
  request.release = r.release.release;
  request.release_how = r.release.how;
  if (!r.block_sizes.empty()) request.block_sizes = parse_block_sizes(r.block_sizes);
  if (!r.nvlink_domains.empty()) request.domains = load_nvlink_domains(r.nvlink_domains);
  // What is written and warned here depends on no cable's rate: those findings are inspect's.
  ClusterInputs inputs = r.inputs;
  inputs.judge_cable_rates = false;
  const Cluster cluster = inputs.fabric_files.empty() && request.domains ? Cluster{} : load_cluster(inputs);
  request.command = r.command;
  if (!r.nodes.empty()) request.slurm_nodes = expand_hostlist_at(r.nodes, "--nodes");
  else if (!r.slurm_conf.empty()) request.slurm_nodes = load_slurm_conf(r.slurm_conf).nodes();

  EmitTopologyResult out;
  out.plan = plan_topology(cluster, request);
  out.to_stdout = is_stdout(r.output);
  out.target = out.to_stdout ? out.plan.file_name : r.output;
  out.warnings = input_warnings(cluster, request.slurm_nodes,
                                r.nodes.empty() ? r.slurm_conf : "--nodes");
  if (!out.plan.left_out.empty()) {
    std::map<HostRole, std::vector<std::string>> by_role;
    for (const std::string& name : out.plan.left_out) by_role[cluster.hosts[cluster.host_index(name)].role].push_back(name);
    std::string what;
    for (auto& [role, names] : by_role)
      what += (what.empty() ? "" : "; ") + std::string(to_string(role)) + " " + listed(std::move(names)) + " (" +
              (role == HostRole::Storage   ? "HCAs on side rails only"
               : role == HostRole::Service ? "at most half their unit's rails, named unlike its hosts"
                                           : "their compute HCAs are unnamed: pass `inspect --suggest-map`'s map back "
                                             "with --node-name-map") +
              ")";
    const bool only_unplaced = by_role.size() == 1 && by_role.begin()->first == HostRole::Unplaced;
    out.notes.push_back(counted(out.plan.left_out.size(), "host", "hosts") + " left out: " + what +
                        (only_unplaced ? "" : "; name the storage and service hosts in --nodes or --slurm-conf to place them"));
  }
  if (!out.plan.in_fabric_not_slurm.empty())
    out.notes.push_back(counted(out.plan.in_fabric_not_slurm.size(), "fabric host", "fabric hosts") +
                        " not in Slurm, left out: " +
                        listed(out.plan.in_fabric_not_slurm));
  if (!out.plan.check.ok()) {
    out.refusal = "slurmctld would not accept it";
    return out;
  }
  if (request.slurm_nodes && !r.force && !cluster.fabrics.empty()) {
    out.refusal = unplaced_refusal(request.slurm_nodes->size(), out.plan.in_slurm_not_fabric,
                                   r.nodes.empty() ? r.slurm_conf : "--nodes");
    if (out.refusal) return out;
  }

  // The new file as the diff reads it: a tree as the check read it, any other form parsed only
  // when something is compared with it.
  std::optional<ParsedTopology> next_parsed;
  auto next = [&]() -> const ParsedTopology& {
    if (out.plan.parsed && out.plan.parsed->errors.empty()) return *out.plan.parsed;
    if (!next_parsed) next_parsed = comparable_topology(out.plan.text, out.target);
    return *next_parsed;
  };
  if (!r.diff.empty()) {
    out.diff = diff_topology(read_topology(r.diff), next());
    out.diff_against = r.diff;
  }
  if (out.to_stdout) return out;
  std::string current;
  // The same bytes drop nothing (the usual re-run after a sweep that found no change).
  if (read_file_if_exists(r.output, current) && current != out.plan.text) {
    const TopologyDiff d = diff_topology(comparable_topology(current, r.output), next());
    if (!r.force) out.refusal = shrink_refusal(d.old_nodes, d.dropped, "the sweep");
    if (out.refusal) return out;
  }
  out.written = atomic_write(r.output, out.plan.text);
  return out;
}

}  // namespace slurmtopo
