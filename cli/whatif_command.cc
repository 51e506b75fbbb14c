// `slurmtopo whatif`: placement policies side by side, the effect of edits (drains, cables,
// spines, another topology.conf), workload replays; `--shard i/N`, `whatif merge` and
// `--sbatch N` to run a large one as a Slurm job array. Parses, calls simulate/whatif/whatif_run.h,
// prints through report/whatif_report.h.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/select_options.h"
#include "graph/graph.h"
#include "report/report.h"
#include "simulate/collective/collective.h"
#include "simulate/whatif/whatif.h"

namespace slurmtopo::cli {

namespace {

struct WhatifOptions {
  ClusterInputs inputs;
  std::string profile, nodes, weights, busy, sizes, size = "1G", routing = "minhop";
  std::string topology_param, version = "22.05";
  uint64_t seed = 1;
  int samples = 100;
  std::string drain, topology;
  std::vector<std::string> drain_switches, remove_cables;
  int add_spines = 0;
  std::string workload;
  int cpus_per_node = 1;
  int synthetic = 0;
  int max_job_test = 500;
  std::string shard;
  int sbatch = 0;
  bool json = false;
  std::string output;
};

struct MergeOptions {
  std::vector<std::string> files;
  bool json = false;
  std::string output;
};

std::vector<int> job_sizes(const std::string& text) {
  std::vector<int> sizes;
  std::string part;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (at == text.size() || text[at] == ',') {
      sizes.push_back(static_cast<int>(number("-N", part, 1)));
      part.clear();
    } else {
      part += text[at];
    }
  }
  return sizes;
}

// A bar on stderr, redrawn on a terminal only: a log file or a pipe gets nothing.
UnitProgress progress_bar() {
  if (!isatty(STDERR_FILENO)) return {};
  auto shown = std::make_shared<int>(-1);
  return [shown](double done, int total) {
    const int pct = total > 0 ? static_cast<int>(100 * done / total) : 100;
    if (pct == *shown) return;
    *shown = pct;
    std::cerr << "\rwhatif [" << std::string(pct / 5, '#') << std::string(20 - pct / 5, '.') << "] " << pct << " %"
              << (pct >= 100 ? "\r                                 \r" : "") << std::flush;
  };
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// For a double-quoted bash string: what bash would otherwise expand.
std::string double_quote_safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '$' || c == '`' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string absolute(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

// The run's own options again, paths made absolute, for the job array's command line.
std::string run_arguments(const WhatifOptions& o) {
  std::vector<std::string> a;
  for (const auto& f : o.inputs.fabric_files) a.insert(a.end(), {"--fabric", absolute(f)});
  if (!o.inputs.name_map.empty()) a.insert(a.end(), {"--node-name-map", absolute(o.inputs.name_map)});
  if (!o.inputs.site_config.empty()) a.insert(a.end(), {"--config", absolute(o.inputs.site_config)});
  const bool file = o.profile.find('/') != std::string::npos || o.profile.ends_with(".yaml") || o.profile.ends_with(".yml");
  a.insert(a.end(), {"--profile", file ? absolute(o.profile) : o.profile});
  auto opt = [&](const char* name, const std::string& v) {
    if (!v.empty()) a.insert(a.end(), {name, v});
  };
  opt("--nodes", o.nodes);
  opt("--weights", o.weights);
  opt("--busy", o.busy);
  opt("-N", o.sizes);
  a.insert(a.end(), {"--size", o.size, "--routing", o.routing, "--seed", std::to_string(o.seed), "--samples",
                     std::to_string(o.samples), "--slurm-version", o.version});
  opt("--topology-param", o.topology_param);
  opt("--drain", o.drain);
  for (const auto& s : o.drain_switches) opt("--drain-switch", s);
  for (const auto& c : o.remove_cables) opt("--remove-cable", c);
  if (o.add_spines) opt("--add-spines", std::to_string(o.add_spines));
  if (!o.topology.empty()) opt("--topology", absolute(o.topology));
  if (!o.workload.empty())
    a.insert(a.end(), {"--workload", absolute(o.workload), "--cpus-per-node", std::to_string(o.cpus_per_node)});
  if (o.synthetic) opt("--synthetic", std::to_string(o.synthetic));
  a.insert(a.end(), {"--bf-max-job-test", std::to_string(o.max_job_test)});
  std::string out;
  for (const auto& s : a) out += " " + shell_quoted(s);
  return out;
}

std::string sbatch_script(const WhatifOptions& o, int shards) {
  std::string exe = "slurmtopo";
  std::error_code ec;
  if (auto self = std::filesystem::read_symlink("/proc/self/exe", ec); !ec) exe = self.string();
  const std::string n = std::to_string(shards);
  const std::string shard_cmd = shell_quoted(exe) + " whatif" + run_arguments(o) + " --shard \"$SLURM_ARRAY_TASK_ID/" + n +
                                "\" -o \"$out-shard-$SLURM_ARRAY_TASK_ID.json\"";
  std::string files;
  for (int i = 0; i < shards; ++i) files += " \"$out-shard-" + std::to_string(i) + ".json\"";
  const std::string merge_cmd = shell_quoted(exe) + " whatif merge" + files + (o.json ? " --json" : "") +
                                " -o \"$out." + (o.json ? "json" : "txt") + "\"";
  std::string s;
  s += "#!/bin/bash\n";
  s += "# slurmtopo whatif in " + n + " shards through Slurm, then merged. Run it with bash (not sbatch):\n";
  s += "# it submits a job array of " + n + " tasks and a merge job that waits for them. The result is\n";
  s += "# $WHATIF_OUT." + std::string(o.json ? "json" : "txt") +
       " (default whatif." + (o.json ? "json" : "txt") + ") in the directory it is run from.\n";
  s += "set -euo pipefail\n";
  s += "export out=\"${WHATIF_OUT:-whatif}\"\n";
  s += "array=$(sbatch --parsable --job-name=whatif --array=0-" + std::to_string(shards - 1) +
       " --cpus-per-task=2 --output=\"$out-shard-%a.log\" \\\n";
  s += "  --wrap=\"" + double_quote_safe(shard_cmd) + "\")\n";
  s += "sbatch --parsable --job-name=whatif-merge --dependency=\"afterok:${array%%;*}\" --output=\"$out-merge.log\" \\\n";
  s += "  --wrap=\"" + double_quote_safe(merge_cmd) + "\"\n";
  return s;
}

void run_whatif(const WhatifOptions& o) {
  if (o.sbatch > 0) {
    if (!o.shard.empty()) throw InputError("--sbatch", 0, "expected either --sbatch N or --shard i/N, not both");
    std::cout << sbatch_script(o, o.sbatch);
    return;
  }
  if (!o.workload.empty() && o.synthetic > 0)
    throw InputError("--workload", 0, "expected either --workload or --synthetic, not both");
  const bool replay = !o.workload.empty() || o.synthetic > 0;
  if (o.sizes.empty() && !replay) throw InputError("-N", 0, "expected the job size (-N COUNT[,COUNT...]) or a workload");

  WhatifRequest request;
  if (!o.sizes.empty()) request.sizes = job_sizes(o.sizes);
  request.seed = o.seed;
  request.samples = o.samples;
  request.max_job_test = o.max_job_test;
  if (!o.busy.empty()) request.busy = hostnames("--busy", o.busy);
  if (!o.drain.empty()) request.edits.drain = hostnames("--drain", o.drain);
  request.edits.drain_switches = o.drain_switches;
  for (const auto& c : o.remove_cables) request.edits.remove_cables.push_back(parse_cable_ref(c));
  request.edits.add_spines = o.add_spines;
  request.edits.topology_file = o.topology;

  Cluster cluster = load_cluster(o.inputs);
  WhatifSlurm slurm;
  std::vector<std::string> names;
  if (!o.nodes.empty()) {
    names = hostnames("--nodes", o.nodes);
  } else {
    for (const Host& h : cluster.hosts)
      if (h.group >= 0) names.push_back(h.name);
  }
  slurm.nodes = slurm_nodes(names, o.weights, "1");
  slurm.params = parse_topology_params(o.topology_param);
  slurm.version = parse_slurm_version(o.version);
  const RoutingKind routing = parse_routing_kind(o.routing);
  const HardwareProfile profile = load_profile(o.profile);
  const double bytes = parse_sizes(o.size).front();

  std::optional<WhatifCase> after;
  if (!request.edits.empty()) {
    WhatifCaseSpec spec;
    spec.drained = request.edits.drain;
    spec.topology_file = request.edits.topology_file;
    spec.lost_hosts_are_down = true;
    spec.routing = routing;
    std::vector<std::string> notes;
    Cluster edited = cluster;
    if (request.edits.changes_fabric()) {
      EditedFabrics e = edit_fabrics(cluster, request.edits);
      edited = build_cluster(std::move(e.fabrics), load_cluster_options(o.inputs));
      notes = std::move(e.notes);
      if (!e.hosts_cut.empty())
        notes.push_back(std::to_string(e.hosts_cut.size()) + " node" + (e.hosts_cut.size() > 1 ? "s" : "") +
                        (e.hosts_cut.size() > 1 ? " lost an HCA cable and count as down" : " lost an HCA cable and counts as down"));
      for (const auto& h : e.hosts_cut)
        if (std::find(names.begin(), names.end(), h) != names.end()) spec.drained.push_back(h);
    }
    after = make_whatif_case(std::move(edited), slurm, spec);
    after->notes.insert(after->notes.begin(), notes.begin(), notes.end());
  }
  std::vector<std::string> sources;
  for (const Fabric& f : cluster.fabrics) sources.push_back(f.source);
  WhatifCaseSpec before_spec;
  before_spec.routing = routing;
  const WhatifCase before = make_whatif_case(std::move(cluster), slurm, before_spec);

  if (!o.workload.empty())
    request.workload = read_swf(o.workload, o.cpus_per_node, static_cast<int>(before.node_names().size()));
  else if (o.synthetic > 0)
    request.workload = synthetic_workload({o.synthetic, static_cast<int>(before.node_names().size()), o.seed, 0.9});

  PlacementCosts before_costs(*before.fabric, profile, bytes);
  std::optional<PlacementCosts> after_costs;
  if (after) after_costs.emplace(*after->fabric, profile, bytes);
  WhatifInputs in{&before, after ? &*after : nullptr, &before_costs, after_costs ? &*after_costs : nullptr, 2};

  const nlohmann::ordered_json header = whatif_run_header(request, in, sources);
  const int total = whatif_units(request);
  if (!o.shard.empty()) {
    const ShardSpec shard = parse_shard(o.shard);
    const auto records = run_whatif_units(request, in, shard_units(total, shard), progress_bar());
    write_output(o.output, shard_document(header, shard, records).dump(2) + "\n");
    return;
  }
  std::vector<int> all(total);
  for (int u = 0; u < total; ++u) all[u] = u;
  const auto records = run_whatif_units(request, in, all, progress_bar());
  // Through the shard form and back, so a merge of shards cannot print anything else.
  const MergedRun run = merge_shards({{"whatif", shard_document(header, {0, 1}, records).dump()}});
  write_output(o.output, whatif_report(run.header, run.records, o.json));
}

void run_merge(const MergeOptions& o) {
  std::vector<std::pair<std::string, std::string>> shards;
  for (const auto& f : o.files) {
    shards.emplace_back(f, read_file(f));
  }
  const MergedRun run = merge_shards(shards);
  write_output(o.output, whatif_report(run.header, run.records, o.json));
}

}  // namespace

void add_whatif_command(CLI::App& app) {
  auto o = std::make_shared<WhatifOptions>();
  CLI::App* cmd = app.add_subcommand(
      "whatif", "Placement policies side by side, the effect of drains, cables, spines or another topology.conf, "
                "and workload replays (FCFS + EASY backfill through Slurm's placement)");
  add_cluster_options(*cmd, o->inputs);
  cmd->get_option("--fabric")->required(false);  // `whatif merge` needs none; checked in the callback
  cmd->add_option("--profile", o->profile, "hardware profile for the predicted busbw: a shipped name or a YAML file");
  cmd->add_option("--nodes", o->nodes, "the partition (hostlist; default: every host on the fabric)");
  cmd->add_option("--weights", o->weights, "node Weight=, 'HOSTLIST=W,...' (others 1)");
  cmd->add_option("-N,--count", o->sizes, "nodes per job; several sizes comma separated");
  cmd->add_option("--busy", o->busy, "nodes allocated to other jobs (policies; with edits, in every sample)");
  cmd->add_option("--size", o->size, "allreduce message size for the predicted busbw")->capture_default_str();
  cmd->add_option("--routing", o->routing, "minhop (D-mod-K), ftree or adaptive")->capture_default_str();
  cmd->add_option("--topology-param", o->topology_param, "TopoOptional and/or Dragonfly");
  cmd->add_option("--slurm-version", o->version, "22.05 (default), 24.05 or 25.11");
  cmd->add_option("--seed", o->seed, "for random placements, sampled busy states and --synthetic")->capture_default_str();
  cmd->add_option("--samples", o->samples, "busy states sampled to compare edits")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--drain", o->drain, "edit: these nodes drained (hostlist)");
  cmd->add_option("--drain-switch", o->drain_switches, "edit: this switch out of service (every cable)");
  cmd->add_option("--remove-cable", o->remove_cables, "edit: SWITCH/PORT or SWITCH_A,SWITCH_B");
  cmd->add_option("--add-spines", o->add_spines, "edit: N more top-level switches, each cabled like an existing one")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--topology", o->topology, "edit: Slurm uses this topology.conf instead of the emitted one")
      ->check(CLI::ExistingFile);
  cmd->add_option("--workload", o->workload, "replay a trace in the Standard Workload Format")->check(CLI::ExistingFile);
  cmd->add_option("--cpus-per-node", o->cpus_per_node, "with --workload: processors per node")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--synthetic", o->synthetic, "replay N seeded synthetic jobs")->check(CLI::PositiveNumber);
  cmd->add_option("--bf-max-job-test", o->max_job_test, "backfill looks this deep into the queue")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--shard", o->shard, "run only slice i of N (0 <= i < N) and write it as JSON for `whatif merge`");
  cmd->add_option("--sbatch", o->sbatch, "print a script that runs N shards as a Slurm job array and merges them")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", o->json, "machine-readable output");
  cmd->add_option("-o,--output", o->output, "write here (atomically) instead of stdout");
  cmd->callback([o, cmd] {
    if (cmd->got_subcommand("merge")) return;
    if (o->inputs.fabric_files.empty()) throw InputError("whatif", 0, "expected --fabric (the predicted busbw needs it)");
    if (o->profile.empty()) throw InputError("whatif", 0, "expected --profile (a shipped name or a YAML file)");
    run_whatif(*o);
  });

  auto m = std::make_shared<MergeOptions>();
  CLI::App* merge = cmd->add_subcommand("merge", "Merge `whatif --shard i/N` outputs into what the run prints");
  merge->add_option("shards", m->files, "the shard files")->required()->check(CLI::ExistingFile);
  merge->add_flag("--json", m->json, "machine-readable output");
  merge->add_option("-o,--output", m->output, "write here (atomically) instead of stdout");
  merge->callback([m] { run_merge(*m); });
}

}  // namespace slurmtopo::cli
