// `slurmtopo probe --fabric FILE --nodes HOSTLIST -o DIR [--dry-run]`: the sbatch script whose
// steps run all_reduce_perf on every leaf group, pairs of groups, one host per group and the
// whole list (simulate/measured/probe_plan.h), written to DIR/probe.sbatch or printed.
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "graph/graph.h"
#include "simulate/measured/measured.h"

namespace slurmtopo::cli {

void add_probe_command(CLI::App& app) {
  struct Options {
    ClusterInputs inputs;
    ProbeRequest request;
    bool dry_run = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "probe", "An sbatch script that runs nccl-tests' all_reduce_perf on placements covering the fabric");
  cmd->footer(exit_status_text("the script is written (or printed with --dry-run)",
                               "bad input (the file and line, or the option, named on stderr)") +
              "\n" +
              examples_text({{"slurmtopo probe --fabric fabric.topo --nodes 'gpu[001-128]' -o /shared/probe -p gpu",
                              "write /shared/probe/probe.sbatch; `sbatch` it, then `report --measured /shared/probe`"},
                             {"slurmtopo probe --fabric fabric.topo --nodes 'gpu[001-128]' -o /shared/probe --dry-run",
                              "print the script instead"}}));
  add_fabric_options(*cmd, o->inputs, FabricOption::Required);
  add_nodes_option(*cmd, o->request.nodes, "the ones to probe (a partition's), each in a leaf group of the fabric")
      ->required();
  add_output_dir_option(*cmd, o->request.out_dir, "probe.sbatch and each step's <step>.out, on a shared filesystem");
  add_batch_job_options(*cmd, {&o->request.partition, &o->request.account, &o->request.time_limit},
                        "the job");
  add_container_options(*cmd, o->request.container_exec, o->request.container_image,
                        "all_reduce_perf runs through it, inside the job's container",
                        "every step runs inside it");
  cmd->add_option("--gpus-per-node", o->request.gpus_per_node,
                  "GPUs per node: ranks per node, one GPU each (all_reduce_perf -g 1); 0 asks Slurm for no GPU and "
                  "runs one task per node")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--mpi", o->request.mpi, "srun --mpi: the PMI nccl-tests' MPI build starts with (pmix, pmi2, none)")
      ->capture_default_str();
  cmd->add_option("--all-reduce-perf", o->request.all_reduce_perf,
                  "the all_reduce_perf the nodes run (nccl-tests built with MPI=1), a path or a name on their PATH")
      ->capture_default_str();
  add_dry_run_option(*cmd, o->dry_run, "print the sbatch script; write nothing");
  cmd->callback([o] {
    o->request.fabric_files = o->inputs.fabric_files;
    o->request.name_map = o->inputs.name_map;
    o->request.site_config = o->inputs.site_config;
    const ProbePlan plan = plan_probe(load_cluster(o->inputs), o->request);
    if (o->dry_run) {
      std::cout << plan.script;
      return;
    }
    write_probe_script(plan);
    std::cout << probe_written_text(plan);
  });
}

}  // namespace slurmtopo::cli
