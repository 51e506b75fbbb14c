// plan_commission(): the report's model, gathered from the libraries the other commands use.
#include <algorithm>
#include <map>
#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "discover/switch_models.h"
#include "emit/topology_diff.h"
#include "emit/topology_plan.h"
#include "graph/input_match.h"
#include "report/commission.h"
#include "report/commission_parts.h"
#include "slurm/hostlist.h"
#include "slurm/release.h"
#include "slurm/slurm_conf.h"
#include "slurm/topology_conf.h"
#include "slurm/topology_file.h"

namespace slurmtopo {

namespace {

std::string level_name(int level) {
  return level == 0 ? "off-path" : level == 1 ? "leaf" : "L" + std::to_string(level);
}

std::vector<CountRow> rows_of(const std::map<std::string, int>& m) {
  std::vector<CountRow> out;
  for (const auto& [k, n] : m) out.push_back({k, n});
  return out;
}

Inventory plan_inventory(const Cluster& c, const NodeSet* nodes) {
  Inventory inv;
  for (const Fabric& f : c.fabrics) {
    FabricSummary s{f.name, f.source, f.captured};
    for (const auto& n : f.nodes) (n.kind == NodeKind::Switch ? s.switches : s.cas) += 1;
    s.cables = static_cast<int>(f.links.size());
    s.partial = !f.partial.empty();
    inv.fabrics.push_back(s);
  }
  for (int comp : c.component_fabric) ++inv.fabrics[comp].components;
  std::map<int, int> by_level;
  std::map<std::string, int> by_model;
  std::set<uint64_t> images;
  std::map<uint64_t, int> image_count;
  for (const auto& s : c.switches) {
    ++by_level[s.level];
    const FabricNode* n = c.fabrics[s.fabric].find(s.guid);
    ++by_model[n ? switch_model(n->vendor_id, n->device_id, n->description) : switch_model(0, 0, "")];
    if (n && n->sysimgguid) ++image_count[n->sysimgguid];
  }
  for (auto [level, n] : by_level) inv.switches_by_level.push_back({level_name(level), n});
  inv.switches_by_model = rows_of(by_model);
  for (auto [image, n] : image_count) inv.chassis += n > 1;
  inv.hcas = static_cast<int>(c.hcas.size());
  for (const auto& h : c.hcas) inv.unresolved_hcas += !h.unresolved.empty();
  for (const auto& h : c.hosts) inv.hosts += h.group >= 0;
  inv.groups = static_cast<int>(c.groups.size());
  inv.aggregation_nodes = c.aggregation_nodes;
  // Rails by position in the unit, as inspect counts them: topograph's rail 3 is HCA-5 on most
  // units and mlx5_4 on one, one rail and not two.
  std::map<int, std::set<int>> rail_leaves;
  for (const auto& h : c.hosts)
    for (int i : h.hcas)
      if (c.hcas[i].position >= 0)
        for (int s : c.hcas[i].switches) rail_leaves[c.hcas[i].position].insert(s);
  for (const auto& [rail, leaves] : rail_leaves) {
    const Rail& r = c.rails[rail];
    std::string names;
    for (const auto& n : r.hca_names) names += (names.empty() ? "" : ", ") + n;
    inv.rails.push_back({r.name + (names.empty() ? "" : " (" + names + ")") + (r.side ? ", side rail" : ""),
                         static_cast<int>(leaves.size())});
  }
  if (nodes)
    for (const NodeClass& k : nodes->classes) inv.node_classes.push_back({k.hostlist, static_cast<int>(k.hosts.size())});
  return inv;
}

std::vector<std::string> issue_lines(const std::vector<TopologyIssue>& issues) {
  std::vector<std::string> out;
  for (const auto& i : issues) out.push_back((i.line > 0 ? "line " + std::to_string(i.line) + ": " : "") + i.message);
  return out;
}
std::vector<std::string> issue_lines(const std::vector<GresIssue>& issues) {
  std::vector<std::string> out;
  for (const auto& i : issues) out.push_back((i.line > 0 ? i.file + ":" + std::to_string(i.line) + ": " : "") + i.message);
  return out;
}

// The topology file in service as slurmctld reads it: its plugin's leaves (a block is a leaf; a
// topology.yaml is its cluster_default topology).
struct InService {
  bool blocks = false;
  ParsedTopology leaves;
};

InService read_in_service(const std::string& path) {
  const std::string text = read_file(path, "the topology file in service");
  const SlurmTopologyFile file = parse_topology_file(text, path);
  return {file.block.has_value(), comparable_topology(file, path)};
}

// Slurm's nodes missing from the fabric are the slurm.nodes check's (graph/input_match.h); a
// compute host Slurm lacks is a warning here (storage and service hosts are left out on purpose).
SlurmFile topology_file(const Cluster& cluster, const TopologyPlan& plan, std::string name, std::string check) {
  SlurmFile f{std::move(name), plan.text, issue_lines(plan.check.errors), issue_lines(plan.check.warnings),
              std::move(check), "slurmctld"};
  std::vector<std::string> compute;
  for (const std::string& h : plan.in_fabric_not_slurm)
    if (const int i = cluster.host_index(h); i >= 0 && cluster.hosts[i].compute()) compute.push_back(h);
  if (!compute.empty())
    f.warnings.push_back("compute hosts of the fabric not in Slurm, left out: " + compress_hostlist(compute));
  return f;
}

// The nodes a topology file lists (a tree's leaves' nodes, or its blocks').
std::vector<std::string> listed_nodes(const ParsedTopology& t) {
  std::vector<std::string> out;
  for (const auto& s : t.switches)
    if (s.has_nodes) out.insert(out.end(), s.nodes.begin(), s.nodes.end());
  return out;
}

}  // namespace

CommissionReport plan_commission(const CommissionRequest& r) {
  CommissionReport out;
  out.command = r.command;
  // Every input is read before anything is planned, so a bad one stops the report at once.
  Cluster cluster = load_cluster(r.inputs);
  const bool have_nodes = !r.nodes.nodes_dir.empty() || !r.nodes.node_classes.empty();
  std::optional<NodeSet> nodes;
  if (have_nodes) nodes = load_node_set(r.nodes, r.node_hosts);
  std::optional<std::vector<std::string>> slurm_nodes;
  if (!r.slurm_conf.empty()) {
    const SlurmConf conf = load_slurm_conf(r.slurm_conf);
    slurm_nodes = conf.nodes();
    if (!conf.cluster_name.empty()) {
      out.cluster = conf.cluster_name;
      out.cluster_from = "ClusterName in " + r.slurm_conf;
    }
  }
  // The admin's name wins: a report made from a copy of slurm.conf, or for a cluster whose
  // ClusterName is a placeholder.
  if (!r.cluster_name.empty()) {
    out.cluster = r.cluster_name;
    out.cluster_from = "--cluster-name";
  }
  std::optional<InService> in_service;
  if (!r.topology.empty()) in_service = read_in_service(r.topology);
  std::optional<BaselineFacts> baseline;
  if (!r.baseline.empty()) baseline = read_baseline(r.baseline);
  const SlurmRelease release = r.release.release;
  const TopologyFormat format = parse_topology_format(r.format);
  const TopologyPlugin plugin = parse_topology_plugin(r.plugin);
  std::optional<NvlinkDomains> domains;
  if (!r.nvlink_domains.empty()) domains = load_nvlink_domains(r.nvlink_domains);
  if (in_service && in_service->blocks && plugin != TopologyPlugin::Block)
    throw InputError(r.topology, 0,
                     "a topology/block file: give --plugin block (with --nvlink-domains when its blocks are NVLink "
                     "domains) so that the report has blocks to compare it with");

  for (const Anomaly& a : cluster.anomalies)
    out.findings.push_back(make_finding("fabric", finding_kind(a.kind), a.subject, a.detail, a.count));
  // Errors are judged only where counters were read: without them the check is not passed,
  // it is not made.
  if (!cluster.counter_sources.empty()) {
    out.applicable.insert("fabric.errors");
    out.applicable.insert("inputs.match");
  }
  // The same for the cabling plan: judged only against a plan given.
  if (!cluster.plan_checks.empty()) out.applicable.insert("fabric.plan");
  std::optional<NodeJoin> join;
  GresPlan gres;
  if (nodes) {
    join = join_nodes(*nodes, &cluster);
    for (const NodeAnomaly& a : join->anomalies)
      out.findings.push_back(make_finding("nodes", finding_kind(a.kind), a.subject, a.detail, a.count));
    out.applicable.insert("inputs.match");
    for (const NodeInventory& n : nodes->nodes) {
      if (n.probe) out.applicable.insert("nodes.health");
      if (n.container_probe) out.applicable.insert("nodes.container");
    }
    gres = plan_gres(*nodes, GresRequest{release, release_line(r.release), r.command, ""});
    out.classes = plan_class_nodes(*nodes, *join, gres);
    out.node_warnings = nodes->warnings;
  }
  auto input_finding = [&](const InputFinding& f) {
    out.findings.push_back(make_finding("inputs", finding_kind(f.kind), f.subject, f.detail, f.count));
  };
  if (slurm_nodes) {
    out.applicable.insert("slurm.nodes");
    out.applicable.insert("inputs.match");
    if (auto f = match_slurm_nodes(cluster, *slurm_nodes, r.slurm_conf, cluster.guesses, true)) input_finding(*f);
  }
  if (in_service) {
    out.applicable.insert("inputs.match");
    if (auto f = match_topology_nodes(cluster, listed_nodes(in_service->leaves), r.topology)) input_finding(*f);
  }
  out.inventory = plan_inventory(cluster, nodes ? &*nodes : nullptr);

  // The files shown are `emit topology`'s: their headers say to regenerate them with it (the
  // report writes none of them), for the release the report checks them against.
  std::string emit = "slurmtopo emit topology";
  for (const auto& f : r.inputs.fabric_files) emit += " --fabric " + f;
  if (!r.inputs.name_map.empty()) emit += " --node-name-map " + r.inputs.name_map;
  if (!r.inputs.site_config.empty()) emit += " --config " + r.inputs.site_config;
  if (!r.slurm_conf.empty()) emit += " --slurm-conf " + r.slurm_conf;
  if (r.release.how.rfind("--slurm-version ", 0) == 0) emit += " " + r.release.how;
  TopologyRequest treq;
  treq.slurm_nodes = slurm_nodes;
  treq.command = emit;
  treq.release = release;
  treq.release_how = r.release.how;
  const TopologyPlan topo = plan_topology(cluster, treq);
  out.drawing = plan_drawing(cluster, topo.tree, out.findings);
  out.leaves = plan_leaf_health(cluster);
  out.counter_sources = cluster.counter_sources;
  out.cable_health = cluster.cable_health;
  out.plans = plan_cabling_sections(cluster, out.findings);
  out.slurm.push_back(topology_file(cluster, topo, "topology.conf", "slurm.topology"));
  // The form the cluster runs, when it is not the tree topology.conf: planned and checked as
  // `emit topology` would write it (a form the release cannot read is an InputError).
  std::optional<TopologyPlan> other;
  if (format == TopologyFormat::Yaml || plugin == TopologyPlugin::Block || domains) {
    TopologyRequest oreq = treq;
    oreq.format = format;
    oreq.plugin = plugin;
    oreq.command = emit + (r.format != "conf" ? " --format " + r.format : "") +
                   (r.plugin != "tree" ? " --plugin " + r.plugin : "") +
                   (r.nvlink_domains.empty() ? "" : " --nvlink-domains " + r.nvlink_domains);
    oreq.domains = domains;
    other = plan_topology(cluster, oreq);
    const bool yaml = format == TopologyFormat::Yaml;
    out.slurm.push_back(topology_file(cluster, *other, yaml ? "topology.yaml" : "topology.conf (topology/block)",
                                      yaml ? "slurm.topology-yaml" : "slurm.topology-block"));
  }
  const std::string other_name = other ? out.slurm.back().name : "";
  if (domains) {
    out.applicable.insert("nodes.nvlink");
    if (other && other->blocks)
      for (const DomainFinding& f : other->blocks->findings)
        out.findings.push_back(make_finding("nodes", domain_kind(f.kind), f.subject, f.detail, f.count));
  }
  if (nodes) {
    const auto errors = issue_lines(gres.check.errors), warnings = issue_lines(gres.check.warnings);
    out.slurm.push_back({"gres.conf", gres.gres_text, errors, warnings, "slurm.gres", "slurmd"});
    out.slurm.push_back({"slurm.conf NodeName lines", gres.nodes_text, {}, {}, "", ""});
  }
  if (in_service) {
    // A file is compared with the generated one of its own plugin: blocks with blocks.
    out.topology_in_service = r.topology;
    if (!in_service->blocks) {
      out.topology_compared_with = "topology.conf";
      out.topology_diff = diff_topology(in_service->leaves, parse_topology_conf(topo.text, "topology.conf")).lines;
    } else if (!other->check.ok()) {
      out.topology_compared_with = other_name;
      out.topology_diff = {"not compared: the generated " + other_name + " fails slurmctld's checks"};
    } else {
      out.topology_compared_with = other_name;
      out.topology_diff = diff_topology(in_service->leaves, comparable_topology(other->text, other_name)).lines;
    }
  }

  for (const Host& h : cluster.hosts) out.hosts.push_back(h.name);
  out.cables = cable_names(cluster);
  // Before the performance section takes the cluster; its findings after, so that a host that
  // measured slow is not left out of the predicted curves.
  if (!r.measured.empty()) {
    out.measured = plan_measured(cluster, r.measured, r.profile, nodes ? &*nodes : nullptr, join ? &*join : nullptr,
                                 domains ? &*domains : nullptr);
    out.applicable.insert("performance.measured");
  }
  // Last: the what-if case keeps the cluster.
  out.performance =
      plan_performance(std::move(cluster), r.profile, nodes ? &*nodes : nullptr, join ? &*join : nullptr, out.findings,
                       domains ? &*domains : nullptr);
  if (out.performance && !out.performance->profile.empty()) {
    out.applicable.insert("performance.profile");
    if (!out.performance->profile_mismatch.empty())
      out.findings.push_back(make_finding("performance", kPerformanceFindingKinds[0], out.performance->profile,
                                          out.performance->profile_mismatch, out.performance->mismatched_hosts));
  }
  if (out.measured) {
    std::vector<MeasuredFinding> found = measured_findings(out.measured->runs);
    for (MeasuredFinding& f : probe_step_findings(out.measured->probe_steps)) found.push_back(std::move(f));
    for (const MeasuredFinding& f : found)
      out.findings.push_back(make_finding("performance", measured_kind(f.kind), f.subject, f.detail, f.count));
  }
  if (baseline) out.baseline = diff_baseline(*baseline, out, r.baseline);
  decide_checks(out);
  return out;
}

}  // namespace slurmtopo
