// `slurmtopo collect --nodes HOSTLIST -o DIR [--dry-run]`: prints or runs the srun step
// that collect_plan builds, then says which nodes did not deliver an export.
#include "cli/collect_command.h"

#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "discover/discover.h"

namespace slurmtopo::cli {

void add_collect_command(CLI::App& app) {
  struct Options {
    CollectRequest request;
    bool dry_run = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("collect", "Export every node's hwloc XML into one directory with one srun step");
  cmd->footer(exit_status_text("every node delivered its export (or --dry-run printed the step)",
                               "bad input, or srun could not be started",
                               {{exit_code::kAttention, "a node delivered no export (named on stderr), or srun failed"}}) +
              "\n" +
              examples_text({{"slurmtopo collect --nodes 'gpu[001-128]' -o /shared/nodes -p debug",
                              "one srun step: every node's hwloc XML into /shared/nodes"},
                             {"slurmtopo collect --nodes 'gpu[001-128]' -o /shared/nodes --dry-run",
                              "print the srun command and an sbatch script instead"}}));
  add_nodes_option(*cmd, o->request.nodes, "the ones to collect from, e.g. gpu[001-128]")->required();
  add_output_dir_option(*cmd, o->request.out_dir, "<node>.xml, on a shared filesystem");
  add_batch_job_options(*cmd, {&o->request.partition, &o->request.account, &o->request.time_limit}, "the step");
  add_container_options(*cmd, o->request.container_exec, o->request.container_image,
                        "the node probe runs a second time through it, inside the job's container (writes "
                        "<node>.container.probe)",
                        "the node probe runs a second time, in a step of its own inside it (writes "
                        "<node>.container.probe)");
  cmd->add_option("--srun-arg", o->request.extra_srun_args, "extra srun argument, e.g. --srun-arg=--gres=gpu:8 (repeatable)");
  add_dry_run_option(*cmd, o->dry_run, "print the srun command and an equivalent sbatch script; run nothing");
  cmd->callback([o] {
    const CollectPlan plan = plan_collect(o->request);
    if (o->dry_run) {
      std::cout << collect_dry_run_text(plan);
      return;
    }
    const CollectReport report = collect_report(plan, run_collect(plan));
    std::cout << report.out;
    std::cerr << report.err;
    if (report.exit_code != 0) throw Exit{report.exit_code};
  });
}

}  // namespace slurmtopo::cli
