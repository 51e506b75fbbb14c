#include "emit/topology_plan.h"

#include <algorithm>
#include <set>

#include "base/input_error.h"
#include "base/text.h"
#include "base/version.h"
#include "emit/block_check.h"
#include "emit/block_conf.h"
#include "emit/topology_conf.h"
#include "slurm/hostlist.h"
#include "slurm/topology_yaml.h"

namespace slurmtopo {

namespace {

std::string describe(const Fabric& f) {
  int switches = 0, cas = 0;
  for (const auto& n : f.nodes) (n.kind == NodeKind::Switch ? switches : cas) += n.kind != NodeKind::Router;
  return "fabric " + f.name + ": " + f.source + " (" + counted(switches, "switch", "switches") + ", " +
         counted(cas, "CA", "CAs") + ", " + counted(f.links.size(), "cable", "cables") + ")";
}

void sort_names(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

void add_issues(TopologyCheck& into, const TopologyCheck& from, const std::string& prefix) {
  for (auto i : from.errors) into.errors.push_back({i.line, prefix + i.message});
  for (auto i : from.warnings) into.warnings.push_back({i.line, prefix + i.message});
}

// `slurm`: Slurm's nodes sorted by natural_less, as check_topology needs them.
TopologyCheck check_tree(const Cluster& cluster, const ParsedTopology& parsed,
                         const std::optional<std::vector<std::string>>& slurm) {
  TopologyCheckOptions options;
  options.slurm_nodes = slurm;
  // One root per separate fabric (or unjoined part of a partial sweep) is intended.
  std::set<int> components;
  for (const auto& g : cluster.groups) components.insert(g.component);
  options.expected_roots = static_cast<int>(components.size());
  TopologyCheck check = check_topology(parsed, options);
  if (cluster.hosts.empty()) {
    // The usual cause of an empty file: HCAs with factory descriptions, no name map given.
    int unresolved = 0;
    for (const auto& h : cluster.hcas) unresolved += !h.unresolved.empty();
    if (unresolved)
      check.errors.insert(check.errors.begin(),
                          {0, "no HCA has a usable host name (" + std::to_string(unresolved) +
                                  " unresolved): give --node-name-map FILE, or host_regex in --config"});
  }
  return check;
}

std::string release_line(const TopologyRequest& r) {
  return r.release_how.empty() ? "" : slurmtopo::release_line(TargetRelease{r.release, r.release_how, false});
}

std::string yaml_text(const TopologyPlan& plan, bool has_tree, const TopologyRequest& r,
                      const std::vector<std::string>& sources) {
  TopologyYaml yaml;
  const std::string wanted = r.plugin == TopologyPlugin::Tree ? kTreeTopology : kBlockTopology;
  if (has_tree) {
    YamlTopology t;
    t.name = kTreeTopology;
    t.kind = YamlTopology::Kind::Tree;
    for (const auto& s : plan.tree.switches) {
      TopologyLine line;
      line.name = s.name;
      if (s.children.empty()) {
        line.has_nodes = true;
        line.nodes = s.nodes;
      } else {
        line.has_switches = true;
        for (int c : s.children) line.switches.push_back(plan.tree.switches[c].name);
      }
      t.tree.switches.push_back(std::move(line));
    }
    yaml.topologies.push_back(std::move(t));
  }
  if (plan.blocks) {
    YamlTopology b;
    b.name = kBlockTopology;
    b.kind = YamlTopology::Kind::Block;
    b.block = plan.blocks->blocks;
    yaml.topologies.push_back(std::move(b));
  }
  YamlTopology flat;
  flat.name = kFlatTopology;
  yaml.topologies.push_back(flat);
  for (auto& t : yaml.topologies) t.cluster_default = t.name == wanted;

  std::vector<std::string> comments = {
      "topology.yaml for Slurm 25.05+, written by slurmtopo " + slurmtopo_version() +
          ": several topologies, one cluster_default;",
      "a partition takes another with Topology=NAME (slurmtopo emit nodes --partition-topology).",
      "If this file exists, slurmctld ignores topology.conf and TopologyPlugin.", "Regenerate rather than edit:",
      "  " + r.command};
  if (!r.release_how.empty()) comments.push_back("for " + release_line(r));
  comments.insert(comments.end(), sources.begin(), sources.end());
  if (has_tree) comments.push_back("tree: the InfiniBand fabric, " + counted(plan.tree.switches.size(), "switch", "switches"));
  if (plan.blocks)
    for (const auto& line : block_header_lines(*plan.blocks)) comments.push_back("block: " + line);
  comments.push_back("flat: no topology (any nodes)");
  comments.push_back("cluster_default: " + wanted);
  return render_topology_yaml(yaml, comments);
}

}  // namespace

TopologyFormat parse_topology_format(const std::string& text) {
  if (text == "conf") return TopologyFormat::Conf;
  if (text == "yaml") return TopologyFormat::Yaml;
  throw InputError("--format", 0, "expected conf or yaml, not \"" + text + "\"");
}

TopologyPlugin parse_topology_plugin(const std::string& text) {
  if (text == "tree") return TopologyPlugin::Tree;
  if (text == "block") return TopologyPlugin::Block;
  throw InputError("--plugin", 0, "expected tree or block, not \"" + text + "\"");
}

std::vector<int> parse_block_sizes(const std::string& text) {
  std::optional<std::vector<int>> sizes = block_sizes_of(text);  // as a BlockSizes= line is read
  if (!sizes)
    throw InputError("--block-sizes", 0, "expected node counts separated by commas, like 18,36,72, not \"" + text + "\"");
  return *sizes;
}

TopologyPlan plan_topology(const Cluster& cluster, const TopologyRequest& request) {
  const bool yaml = request.format == TopologyFormat::Yaml;
  const bool block = request.plugin == TopologyPlugin::Block;
  if (yaml) require_release(request.release, TopologyForm::Yaml, "--format yaml", request.release_how);
  if (block) require_release(request.release, TopologyForm::BlockConf, "--plugin block", request.release_how);
  if (request.domains && !yaml && !block)
    throw InputError("--nvlink-domains", 0, "NVLink domains make blocks: give --plugin block or --format yaml");
  const bool has_fabric = !cluster.fabrics.empty();
  if (!has_fabric && !request.domains)
    throw InputError("--fabric", 0, "expected the InfiniBand fabric (--fabric) or NVLink domains (--nvlink-domains)");
  if (!has_fabric && !block) throw InputError("--plugin tree", 0, "a tree topology needs the InfiniBand fabric: give --fabric");

  TopologyPlan plan;
  plan.file_name = yaml ? "topology.yaml" : "topology.conf";
  std::optional<std::vector<std::string>> slurm = request.slurm_nodes;
  if (slurm) sort_names(*slurm);
  std::vector<std::string> hosts, compute;
  for (const auto& h : cluster.hosts) {
    if (h.group < 0) continue;
    // An unplaced host's only named HCA is on a storage leaf while its compute HCAs are
    // unnamed: no leaf can be given for it, whatever Slurm's list says.
    if (h.role == HostRole::Unplaced) {
      plan.left_out.push_back(h.name);
      continue;
    }
    hosts.push_back(h.name);  // already in natural order
    if (!h.compute()) plan.left_out.push_back(h.name);
    else compute.push_back(h.name);
  }
  // Storage and service hosts are placed only when Slurm's node list names them.
  if (slurm || plan.left_out.empty()) plan.left_out.clear();
  const std::optional<std::vector<std::string>> placed =
      slurm ? slurm : plan.left_out.empty() ? std::nullopt : std::optional(compute);
  if (has_fabric) {
    plan.tree = build_slurm_tree(cluster);
    if (!slurm && placed) plan.tree = restrict_to_nodes(plan.tree, *placed);
    if (slurm) {
      auto less = [](const auto& a, const auto& b) { return natural_less(a, b); };
      std::set_difference(slurm->begin(), slurm->end(), hosts.begin(), hosts.end(),
                          std::back_inserter(plan.in_slurm_not_fabric), less);
      std::set_difference(hosts.begin(), hosts.end(), slurm->begin(), slurm->end(),
                          std::back_inserter(plan.in_fabric_not_slurm), less);
      std::vector<std::string> known;
      std::set_intersection(slurm->begin(), slurm->end(), hosts.begin(), hosts.end(), std::back_inserter(known), less);
      plan.tree = restrict_to_nodes(plan.tree, known);
    }
  }
  std::vector<std::string> sources;
  for (const auto& f : cluster.fabrics) sources.push_back(describe(f));
  if (block || yaml) {
    if (request.domains) {
      std::optional<std::vector<std::string>> known = slurm;
      if (!known && has_fabric) known = hosts;
      plan.blocks = plan_blocks_from_domains(*request.domains, known, request.release);
    } else {
      plan.blocks = plan_blocks_from_groups(cluster, placed, request.release);
    }
    if (request.block_sizes) {
      plan.blocks->blocks.block_sizes = *request.block_sizes;
      plan.blocks->explanation = {"as given (--block-sizes), checked as slurmctld reads them"};
    }
  } else if (request.block_sizes) {
    throw InputError("--block-sizes", 0, "needs a block topology: --plugin block, or --format yaml");
  }
  BlockCheckOptions block_options{request.release, slurm};
  if (!yaml && !block) {
    TopologyHeader header;
    header.command = request.command;
    header.release = release_line(request);
    header.sources = sources;
    plan.text = render_topology_conf(plan.tree, header);
    plan.parsed = parse_topology_conf(plan.text, plan.file_name);
    plan.check = check_tree(cluster, *plan.parsed, slurm);
    plan.summary = counted(plan.tree.switches.size(), "switch", "switches");
  } else if (!yaml) {
    plan.text = render_block_conf(*plan.blocks, {request.command, release_line(request), sources});
    plan.check = check_blocks(parse_block_topology(plan.text, plan.file_name), block_options);
    plan.summary = counted(plan.blocks->blocks.blocks.size(), "block", "blocks");
  } else {
    plan.text = yaml_text(plan, has_fabric, request, sources);
    const TopologyYaml parsed = parse_topology_yaml(plan.text, plan.file_name);
    std::string names;
    for (const auto& t : parsed.topologies) {
      names += (names.empty() ? "" : ", ") + t.name;
      if (t.kind == YamlTopology::Kind::Tree)
        add_issues(plan.check, check_tree(cluster, t.tree, slurm), "topology " + t.name + ": ");
      if (t.kind == YamlTopology::Kind::Block)
        add_issues(plan.check, check_blocks(t.block, block_options), "topology " + t.name + ": ");
    }
    plan.summary = counted(parsed.topologies.size(), "topology", "topologies") + ": " + names;
  }
  if (plan.blocks)
    for (const auto& a : plan.blocks->anomalies) plan.check.warnings.push_back({0, "anomaly: " + a});
  return plan;
}

}  // namespace slurmtopo
