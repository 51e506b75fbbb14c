// `slurmtopo whatif`: placement policies side by side, the effect of edits (drains, cables,
// the cables the port counters condemn, spines, another topology.conf), workload replays;
// `--shard i/N`, `whatif merge` and `--sbatch N` to run a large one as a Slurm job array.
// WhatifOptions → run_whatif (simulate/whatif/whatif_plan.h) → whatif_output (report/whatif_report.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "report/report.h"
#include "simulate/whatif/whatif.h"

namespace slurmtopo::cli {

namespace {

struct WhatifOptions {
  WhatifArguments args;
  int sbatch = 0;
  bool json = false;
  std::string output;
  std::string slurm_version;
};

// The job array's tasks run this very binary.
std::string this_executable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "slurmtopo" : self.string();
}

}  // namespace

void add_whatif_command(CLI::App& app) {
  auto o = std::make_shared<WhatifOptions>();
  CLI::App* cmd = app.add_subcommand(
      "whatif", "Placement policies side by side, the effect of drains, cables, spines or another topology.conf, "
                "and workload replays (FCFS + EASY backfill through Slurm's placement)");
  cmd->footer(plain_exit_status() + "\n" +
              examples_text({{"slurmtopo whatif --fabric fabric.topo --profile h100-ndr -N 16,64",
                              "Slurm's placement against no topology, the best and a random one"},
                             {"slurmtopo whatif --fabric fabric.topo --profile h100-ndr -N 32 --remove-cable leaf1/24",
                              "the effect of an edit, over sampled busy states"},
                             {"slurmtopo whatif --fabric fabric.topo --counters errors.txt --profile h100-ndr -N 32 "
                              "--drain-errored",
                              "every cable ibqueryerrors condemns taken out: what replacing them costs or saves"},
                             {"slurmtopo whatif --fabric fabric.topo --profile h100-ndr --sbatch 16 -o run.sh",
                              "16 shards as a Slurm job array, merged at the end"}}));
  add_fabric_options(*cmd, o->args.inputs, FabricOption::Optional,
                     "`whatif merge` needs none");
  add_profile_option(*cmd, o->args.profile, "for the predicted busbw");
  add_nodes_option(*cmd, o->args.nodes,
                   "the partition (default: slurm.conf's nodes with --slurm-conf, else every compute host on the fabric)");
  add_slurm_conf_option(*cmd, o->args.slurm_conf, "Slurm's nodes with their Weight= (the partition unless --nodes)");
  add_job_options(*cmd, {&o->args.weights, &o->args.busy, &o->args.topology_param, "; with edits, in every sample"});
  cmd->add_option("-N,--count", o->args.sizes, "nodes per job (salloc -N): several sizes comma separated");
  cmd->add_option("--size", o->args.size, "allreduce message size for the predicted busbw")->capture_default_str();
  add_nvlink_domains_option(*cmd, o->args.nvlink_domains,
                            "on a multi-node NVLink profile (gb200-nvl72) the busbw counts a job's domains, not its nodes");
  cmd->add_option("--routing", o->args.routing, "routing: minhop (D-mod-K), ftree or adaptive")
      ->transform(one_of({"minhop", "ftree", "adaptive"}, true))
      ->capture_default_str();
  add_slurm_version_option(*cmd, o->slurm_version, "the node selection slurmctld runs");
  cmd->add_option("--seed", o->args.seed, "for random placements, sampled busy states and --synthetic")->capture_default_str();
  cmd->add_option("--samples", o->args.samples, "busy states sampled to compare edits")
      ->capture_default_str()->check(whole_number(1));
  cmd->add_option("--drain", o->args.drain, "edit: these nodes drained (hostlist)");
  cmd->add_option("--drain-switch", o->args.drain_switches, "edit: this switch out of service (every cable)");
  cmd->add_option("--remove-cable", o->args.remove_cables, "remove a cable: an edit, SWITCH/PORT or SWITCH_A,SWITCH_B");
  add_counters_option(*cmd, o->args.inputs, "for --drain-errored (with --config's counter_thresholds)");
  cmd->add_flag("--drain-errored", o->args.drain_errored,
                "edit: every cable with an end over a cable-errors threshold removed (symbol errors, link recoveries, "
                "link downs, receive errors, local link integrity, buffer overruns; from --counters or the snapshot's "
                "counters), to see what replacing them costs or saves; congestion, upstream and config errors remove "
                "nothing (traffic, or another cable's fault)");
  cmd->add_option("--add-spines", o->args.add_spines, "edit: N more top-level switches, each cabled like an existing one")
      ->check(whole_number(1));
  cmd->add_option("--replace-topology", o->args.topology, "edit: Slurm uses this topology.conf instead of the emitted one")
      ->check(CLI::ExistingFile);
  CLI::Option* workload =
      cmd->add_option("--workload", o->args.workload, "replay a trace in the Standard Workload Format")->check(CLI::ExistingFile);
  cmd->add_option("--cpus-per-node", o->args.cpus_per_node, "with --workload: processors per node")
      ->capture_default_str()->check(whole_number(1));
  cmd->add_option("--synthetic", o->args.synthetic, "replay N seeded synthetic jobs")
      ->check(whole_number(1))->excludes(workload);
  cmd->add_option("--bf-max-job-test", o->args.max_job_test, "backfill looks this deep into the queue")
      ->capture_default_str()->check(whole_number(1));
  CLI::Option* shard = cmd->add_option("--shard", o->args.shard, "run only slice i of N (0 <= i < N) and write it as JSON for `whatif merge`");
  cmd->add_option("--sbatch", o->sbatch, "print (or -o: write) a script that runs N shards as a Slurm job array and merges them")
      ->check(whole_number(1))->excludes(shard);
  add_json_flag(*cmd, o->json);
  add_output_option(*cmd, o->output, "write here (atomically)");
  cmd->callback([o, cmd] {
    if (cmd->got_subcommand("merge")) return;
    o->args.release = resolve_release(o->slurm_version);
    if (o->sbatch > 0) {
      write_output(o->output, whatif_sbatch_script(o->args, o->sbatch, o->json, this_executable()));
      return;
    }
    write_output(o->output, whatif_output(run_whatif(o->args, terminal_progress_bar()), o->json));
  });

  struct MergeOptions {
    std::vector<std::string> files;
    bool json = false;
    std::string output;
  };
  auto m = std::make_shared<MergeOptions>();
  CLI::App* merge = cmd->add_subcommand("merge", "Merge `whatif --shard i/N` outputs into what the run prints");
  merge->add_option("shards", m->files, "the shard files")->required()->check(CLI::ExistingFile);
  add_json_flag(*merge, m->json);
  add_output_option(*merge, m->output, "write here (atomically)");
  merge->callback([m] {
    const MergedRun run = merge_shard_files(m->files);
    write_output(m->output, whatif_report(run.header, run.records, m->json));
  });
}

}  // namespace slurmtopo::cli
