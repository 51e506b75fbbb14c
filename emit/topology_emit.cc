#include "emit/topology_emit.h"

#include <algorithm>

#include "base/text.h"
#include "base/files.h"
#include "base/input_error.h"
#include "emit/write_guard.h"
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

std::vector<std::string> input_warnings(const Cluster& cluster, const TopologyPlan& plan,
                                        const std::optional<std::vector<std::string>>& slurm_nodes,
                                        const std::string& slurm_source) {
  std::vector<std::string> w;
  int unresolved = 0;
  for (const auto& h : cluster.hcas) unresolved += !h.unresolved.empty();
  if (unresolved)
    w.push_back(counted(unresolved, "HCA has", "HCAs have") + " no usable host name (see slurmtopo inspect)");
  if (cluster.name_map.entries > 0 && cluster.name_map.matched == 0)
    w.push_back("the name map " + cluster.name_map.source + " matches nothing in the fabric (" +
                counted(cluster.name_map.entries, "entry", "entries") + ", none of them a GUID of the " +
                counted(cluster.hcas.size(), "HCA", "HCAs") + " swept): a map of another fabric?");
  std::vector<std::string> partial;
  for (const Anomaly& a : cluster.anomalies) {
    const bool placed = !slurm_nodes || std::count(slurm_nodes->begin(), slurm_nodes->end(), a.subject);
    if (a.kind == Anomaly::Kind::PartialHost && placed) partial.push_back(a.subject);
  }
  if (!partial.empty())
    w.push_back("partial " + counted(partial.size(), "host", "hosts") + " " + listed(partial) +
                ": fewer rails than their unit's peers (UFM or service hosts?); exclude them (exclude_hosts in "
                "site.yaml) or pass --slurm-conf so only Slurm's nodes are placed");
  size_t grouped = 0;
  for (const auto& h : cluster.hosts) grouped += h.group >= 0;
  if (slurm_nodes && !plan.in_slurm_not_fabric.empty() && plan.in_fabric_not_slurm.size() == grouped)
    w.push_back(slurm_source + " matches nothing in the fabric: none of its " +
                counted(plan.in_slurm_not_fabric.size(), "node", "nodes") + " is one of the fabric's " +
                counted(grouped, "host", "hosts") + " (another cluster's file?)");
  else if (!plan.in_slurm_not_fabric.empty())
    w.push_back(counted(plan.in_slurm_not_fabric.size(), "Slurm node", "Slurm nodes") + " not in the fabric: " +
                listed(plan.in_slurm_not_fabric));
  return w;
}

}  // namespace

EmitTopologyResult emit_topology(const EmitTopologyRequest& r) {
  TopologyRequest request;
  request.format = parse_topology_format(r.format);
  request.plugin = parse_topology_plugin(r.plugin);
  const TargetRelease release = target_release(r.slurm_version);
  request.release = release.release;
  request.release_how = release.how;
  if (!r.nvlink_domains.empty()) request.domains = load_nvlink_domains(r.nvlink_domains);
  const Cluster cluster = r.inputs.fabric_files.empty() && request.domains ? Cluster{} : load_cluster(r.inputs);
  request.command = r.command;
  if (!r.nodes.empty()) request.slurm_nodes = expand_hostlist_at(r.nodes, "--nodes");
  else if (!r.slurm_conf.empty()) request.slurm_nodes = load_slurm_conf(r.slurm_conf).nodes();

  EmitTopologyResult out;
  out.plan = plan_topology(cluster, request);
  out.to_stdout = is_stdout(r.output);
  out.target = out.to_stdout ? out.plan.file_name : r.output;
  out.warnings = input_warnings(cluster, out.plan, request.slurm_nodes,
                                r.nodes.empty() ? r.slurm_conf : "--nodes");
  if (!out.plan.storage_left_out.empty())
    out.notes.push_back(counted(out.plan.storage_left_out.size(), "storage host", "storage hosts") +
                        " (HCAs on side rails only) left out: " + listed(out.plan.storage_left_out) +
                        "; name them in --nodes or --slurm-conf to place them");
  if (!out.plan.in_fabric_not_slurm.empty())
    out.notes.push_back(counted(out.plan.in_fabric_not_slurm.size(), "fabric host", "fabric hosts") +
                        " not in Slurm, left out: " +
                        listed(out.plan.in_fabric_not_slurm));
  if (!out.plan.check.ok()) {
    out.refusal = "slurmctld would not accept it";
    return out;
  }

  const ParsedTopology next = comparable_topology(out.plan.text, out.target);
  if (!r.diff.empty()) {
    out.diff = diff_topology(read_topology(r.diff), next);
    out.diff_against = r.diff;
  }
  if (out.to_stdout) return out;
  std::string current;
  if (read_file_if_exists(r.output, current)) {
    const TopologyDiff d = diff_topology(read_topology(r.output), next);
    if (!r.force) out.refusal = shrink_refusal(d.old_nodes, d.dropped, "the sweep");
    if (out.refusal) return out;
  }
  out.written = atomic_write(r.output, out.plan.text);
  return out;
}

}  // namespace slurmtopo
