#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "emit/emit.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

namespace {
struct Options {
  ClusterInputs inputs;
  std::string nodes;
  std::string slurm_conf;
  std::string diff;
  std::string output;
  bool force = false;
  std::string command_line;
};

void print_issues(const std::string& file, const char* kind, const std::vector<TopologyIssue>& issues) {
  for (const auto& i : issues)
    std::cerr << kind << ": " << file << (i.line ? ":" + std::to_string(i.line) : "") << ": " << i.message << "\n";
}

std::string listed(std::vector<std::string> names) {
  std::string list = compress_hostlist(std::move(names));
  return list.size() > 300 ? list.substr(0, 300) + "…" : list;
}

ParsedTopology read_topology(const std::string& path) {
  std::string text;
  if (!read_file_if_exists(path, text)) throw InputError(path, 0, "cannot read the current topology.conf");
  ParsedTopology parsed = parse_topology_conf(text, path);
  if (!parsed.errors.empty())
    throw InputError(path, parsed.errors.front().line, parsed.errors.front().message);
  return parsed;
}

void run_topology(const Options& o) {
  Cluster cluster = load_cluster(o.inputs);
  TopologyRequest request;
  request.command = o.command_line;
  if (!o.nodes.empty()) {
    request.slurm_nodes = expand_hostlist_at(o.nodes, "--nodes");
  } else if (!o.slurm_conf.empty()) {
    request.slurm_nodes = load_slurm_conf(o.slurm_conf).nodes();
  }
  TopologyPlan plan = plan_topology(cluster, request);

  int unresolved = 0;
  for (const auto& h : cluster.hcas) unresolved += !h.unresolved.empty();
  if (unresolved)
    std::cerr << "warning: " << unresolved << " HCAs have no usable host name (see slurmtopo inspect)\n";
  for (const Anomaly& a : cluster.anomalies)
    if (a.kind == Anomaly::Kind::SplitFabrics) std::cerr << "warning: " << a.subject << ": " << a.detail << "\n";
  if (!plan.in_slurm_not_fabric.empty())
    std::cerr << "warning: " << plan.in_slurm_not_fabric.size() << " Slurm nodes not in the fabric: "
              << listed(plan.in_slurm_not_fabric) << "\n";
  if (!plan.in_fabric_not_slurm.empty())
    std::cerr << "note: " << plan.in_fabric_not_slurm.size() << " fabric hosts not in Slurm, left out: "
              << listed(plan.in_fabric_not_slurm) << "\n";
  const std::string target = o.output.empty() ? "topology.conf" : o.output;
  print_issues(target, "warning", plan.check.warnings);
  if (!plan.check.ok()) {
    print_issues(target, "error", plan.check.errors);
    std::cerr << "slurmtopo: refusing to write " << target << ": slurmctld would not accept it\n";
    throw Exit{2};
  }

  ParsedTopology next = parse_topology_conf(plan.text, target);
  if (!o.diff.empty()) {
    TopologyDiff d = diff_topology(read_topology(o.diff), next);
    if (d.empty()) std::cout << "no change against " << o.diff << "\n";
    for (const auto& line : d.lines) std::cout << line << "\n";
  }
  if (o.output.empty()) {
    if (o.diff.empty()) std::cout << plan.text;
    return;
  }
  std::string current;
  if (read_file_if_exists(o.output, current)) {
    auto refusal = shrink_refusal(diff_topology(read_topology(o.output), next));
    if (refusal && !o.force) {
      std::cerr << "slurmtopo: refusing to write " << o.output << ": " << *refusal << "\n";
      throw Exit{2};
    }
  }
  WriteResult r = atomic_write(o.output, plan.text);
  std::cerr << (r == WriteResult::Unchanged ? "unchanged: " : "wrote ") << o.output << " ("
            << plan.tree.switches.size() << " switches)\n";
}
}  // namespace

void add_emit_command(CLI::App& app) {
  CLI::App* emit = app.add_subcommand("emit", "Write what Slurm reads, checked against Slurm's rules");
  emit->require_subcommand(1);
  add_emit_gres_commands(*emit);
  auto opt = std::make_shared<Options>();
  CLI::App* topo = emit->add_subcommand("topology", "topology.conf for topology/tree");
  add_cluster_options(*topo, opt->inputs);
  auto* nodes = topo->add_option("--nodes", opt->nodes, "restrict to these Slurm nodes (hostlist)");
  topo->add_option("--slurm-conf", opt->slurm_conf, "restrict to the NodeName lines of this slurm.conf")
      ->check(CLI::ExistingFile)
      ->excludes(nodes);
  topo->add_option("--diff", opt->diff, "print what changes against this topology.conf")->check(CLI::ExistingFile);
  topo->add_option("-o,--output", opt->output, "write here (atomically, keeping .bak); stdout if absent");
  topo->add_flag("--force", opt->force, "write even if it drops more than 5 % of the current file's nodes");
  topo->callback([opt] {
    // The header says how to regenerate the file: the command as given, minus -o.
    opt->command_line = "slurmtopo emit topology";
    for (const auto& f : opt->inputs.fabric_files) opt->command_line += " --fabric " + f;
    if (!opt->inputs.name_map.empty()) opt->command_line += " --node-name-map " + opt->inputs.name_map;
    if (!opt->inputs.site_config.empty()) opt->command_line += " --config " + opt->inputs.site_config;
    if (!opt->nodes.empty()) opt->command_line += " --nodes '" + opt->nodes + "'";
    if (!opt->slurm_conf.empty()) opt->command_line += " --slurm-conf " + opt->slurm_conf;
    run_topology(*opt);
  });
}

}  // namespace slurmtopo::cli
