// `slurmtopo emit gres` (gres.conf) and `slurmtopo emit nodes` (slurm.conf NodeName lines):
// both from the same node classes and the same plan, so the two files always agree; nothing
// is written unless both pass slurmd's rules together.
#include <iostream>
#include <memory>
#include <set>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/node_options.h"
#include "emit/emit.h"
#include "graph/graph.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

namespace {

enum class Output { Gres, Nodes };

struct Options {
  NodeInputs nodes;
  ClusterInputs fabric;
  std::string slurm_version = "22.05";
  std::string output;
  std::string dev_dir;
  std::string check;  // gres only: check this existing file instead of emitting
  bool force = false;
};

void print_issues(const char* kind, const std::vector<GresIssue>& issues) {
  for (const auto& i : issues)
    std::cerr << kind << ": " << i.file << (i.line ? ":" + std::to_string(i.line) : "") << ": " << i.message << "\n";
}

std::string command_line(const char* what, const Options& o) {
  std::string s = std::string("slurmtopo emit ") + what;
  if (!o.nodes.sources.nodes_dir.empty()) s += " --nodes-dir " + o.nodes.sources.nodes_dir;
  for (const auto& c : o.nodes.sources.node_classes) s += " --node-class '" + c + "'";
  if (!o.nodes.nodes.empty()) s += " --nodes '" + o.nodes.nodes + "'";
  s += " --slurm-version " + o.slurm_version;
  if (!o.dev_dir.empty()) s += " --dev-dir " + o.dev_dir;
  return s;
}

// The nodes a gres.conf or node-line file already describes, to refuse silently dropping
// most of them (a half-collected --nodes-dir) without --force.
std::set<std::string> described_nodes(const std::string& text, Output what, const std::string& file) {
  std::set<std::string> out;
  if (what == Output::Gres) {
    for (const auto& l : parse_gres_conf(text, file).lines) out.insert(l.nodes.begin(), l.nodes.end());
  } else {
    for (const auto& l : parse_node_conf(text, file).lines) out.insert(l.nodes.begin(), l.nodes.end());
  }
  return out;
}

void run(Output what, Options o) {
  const SlurmRelease version = parse_slurm_release(o.slurm_version);
  // --force also lets a listed node without a file through, as a warning.
  o.nodes.sources.allow_missing = o.force;
  const NodeSet set = load_nodes(o.nodes);
  print_node_warnings(set);

  if (!o.fabric.fabric_files.empty()) {
    const Cluster cluster = load_cluster(o.fabric);
    for (const auto& a : join_nodes(set, &cluster).anomalies)
      std::cerr << "warning: " << to_string(a.kind) << " " << a.subject << ": " << a.detail << "\n";
  } else {
    for (const auto& a : join_nodes(set, nullptr).anomalies)
      std::cerr << "warning: " << to_string(a.kind) << " " << a.subject << ": " << a.detail << "\n";
  }

  GresRequest request;
  request.version = version;
  request.dev_dir = o.dev_dir;
  request.command = command_line(what == Output::Gres ? "gres" : "nodes", o);
  const GresPlan plan = plan_gres(set, request);
  for (const auto& n : plan.notes) std::cerr << "note: " << n << "\n";

  if (!o.check.empty()) {
    std::string text;
    if (!read_file_if_exists(o.check, text)) throw InputError(o.check, 0, "cannot read the gres.conf to check");
    GresCheck c = check_existing_gres(text, o.check, plan, version);
    print_issues("warning", c.warnings);
    print_issues("error", c.errors);
    if (!c.ok()) {
      std::cerr << "slurmtopo: " << o.check << ": " << c.errors.size() << " error(s) against slurmd's rules for Slurm "
                << to_string(version) << "\n";
      throw Exit{2};
    }
    std::cerr << o.check << ": passes slurmd's rules for Slurm " << to_string(version) << "\n";
    return;
  }

  const std::string target = o.output.empty() ? (what == Output::Gres ? "gres.conf" : "slurm.conf") : o.output;
  print_issues("warning", plan.check.warnings);
  if (!plan.check.ok()) {
    print_issues("error", plan.check.errors);
    std::cerr << "slurmtopo: refusing to write " << target << ": slurmd would not accept it\n";
    throw Exit{2};
  }
  const std::string& text = what == Output::Gres ? plan.gres_text : plan.nodes_text;
  if (o.output.empty() || o.output == "-") {
    std::cout << text;
    return;
  }
  std::string current;
  if (read_file_if_exists(o.output, current) && !o.force) {
    std::set<std::string> before = described_nodes(current, what, o.output), after = described_nodes(text, what, target);
    std::vector<std::string> dropped;
    for (const auto& n : before)
      if (!after.count(n)) dropped.push_back(n);
    if (dropped.size() * 20 > before.size()) {  // more than 5 %, as emit topology
      std::cerr << "slurmtopo: refusing to write " << o.output << ": the new file drops " << dropped.size() << " of the "
                << before.size() << " nodes in the current one (" << compress_hostlist(dropped)
                << "): check the node files, or use --force\n";
      throw Exit{2};
    }
  }
  WriteResult r = atomic_write(o.output, text);
  std::cerr << (r == WriteResult::Unchanged ? "unchanged: " : "wrote ") << o.output << " (" << set.nodes.size()
            << " nodes in " << set.classes.size() << " class" << (set.classes.size() == 1 ? "" : "es") << ")\n";
}

void add_one(CLI::App& emit, Output what) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = what == Output::Gres
                      ? emit.add_subcommand("gres", "gres.conf: one line per GPU per node class, checked as slurmd checks it")
                      : emit.add_subcommand("nodes", "slurm.conf NodeName= lines (and GresTypes=gpu, NCCL_IB_HCA per class)");
  add_node_options(*cmd, o->nodes);
  add_optional_fabric_options(*cmd, o->fabric);
  cmd->add_option("--slurm-version", o->slurm_version,
                  "Slurm release the files are for (22.05, 24.11, 25.11, ...): 24.11+ need whole sockets in Cores=")
      ->capture_default_str();
  cmd->add_option("--dev-dir", o->dev_dir, "directory of the GPU device files in File= (default: as discovered, /dev)");
  cmd->add_option("-o,--output", o->output, "write here (atomically, keeping .bak); stdout if absent");
  cmd->add_flag("--force", o->force,
                "write even if it drops more than 5 % of the current file's nodes, or a --nodes host has no file");
  if (what == Output::Gres)
    cmd->add_option("--check", o->check, "check this existing gres.conf against the nodes instead of emitting")
        ->check(CLI::ExistingFile);
  cmd->callback([o, what] { run(what, *o); });
}

}  // namespace

void add_emit_gres_commands(CLI::App& emit) {
  add_one(emit, Output::Gres);
  add_one(emit, Output::Nodes);
}

}  // namespace slurmtopo::cli
