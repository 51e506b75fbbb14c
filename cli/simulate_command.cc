// `slurmtopo simulate`: what a placement costs a collective, per message size, and what
// limits it; `--compare` puts two placements side by side. SimulateOptions → run_simulation
// (simulate/collective/simulation.h) → simulate_report (report/simulate_report.h).
// `--measured PATH`: nccl-tests runs against their predictions → run_measured
// (simulate/measured/measured_simulation.h) → measured_report (report/measured_report.h).
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "report/report.h"
#include "simulate/collective/collective.h"
#include "simulate/measured/measured.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

namespace {

struct SimulateOptions {
  ClusterInputs inputs;
  std::string nodes_dir;
  std::string profile;
  std::string nodes;
  std::string compare;
  std::string sizes = "1K,1M,16M,256M,1G,8G";
  std::string algo = "auto";
  std::string collective = "allreduce";
  std::string routing = "minhop";
  std::string lft;
  std::string busy_jobs;
  std::string nvlink_domains;
  std::string measured;
  bool json = false;
};

void run_measured_runs(const SimulateOptions& o) {
  MeasuredRequest r;
  r.inputs = o.inputs;
  r.profile = o.profile;
  r.nodes_dir = o.nodes_dir;
  r.measured = o.measured;
  r.routing = parse_routing_kind(o.routing);
  r.nvlink_domains = o.nvlink_domains;
  const MeasuredResult result = run_measured(r);
  std::cout << measured_report(result, o.json);
  if (const int code = measured_exit_code(result)) throw Exit{code};
}

void run_simulate(const SimulateOptions& o) {
  if (!o.measured.empty()) return run_measured_runs(o);
  if (o.nodes.empty()) throw InputError("simulate", 0, "expected --nodes (the placement) or --measured (nccl-tests runs)");
  SimulationRequest r;
  r.inputs = o.inputs;
  r.profile = o.profile;
  r.nodes_dir = o.nodes_dir;
  r.lft = o.lft;
  r.busy_jobs = o.busy_jobs;
  r.nvlink_domains = o.nvlink_domains;
  r.options.sizes = parse_sizes(o.sizes, "--sizes");
  r.options.collective = parse_collective(o.collective);
  if (o.algo != "auto") r.options.algorithm = parse_algorithm(o.algo);
  r.options.routing = parse_routing_kind(o.routing);
  r.hosts = expand_hostlist_at(o.nodes, "--nodes");
  if (!o.compare.empty()) r.compare = expand_hostlist_at(o.compare, "--compare");
  std::cout << simulate_report(run_simulation(r), o.json);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate", "Collective time and bus bandwidth of a placement on this fabric, with its routing");
  cmd->footer(exit_status_text("the prediction is printed; with --measured, every run within the model's error",
                               "bad input (the file and line named on stderr)",
                               {{exit_code::kAttention, "--measured: a finding warns (GPUDirect off, an HCA not the GPU's nearest)"},
                                {exit_code::kFails, "--measured: a run below its prediction, wrong results, or sockets"}}) +
              "\n" +
              examples_text({{"slurmtopo simulate --fabric fabric.topo --profile h100-ndr --nodes 'gpu[001-016]' "
                              "--compare 'gpu[001-008,017-024]'",
                              "allreduce time and bus bandwidth of two placements, side by side"},
                             {"slurmtopo simulate --fabric fabric.topo --nodes-dir nodes/ --measured all_reduce_perf.out",
                              "an nccl-tests run (with NCCL_DEBUG=INFO lines) against its prediction, and why it fell short"}}));
  add_fabric_options(*cmd, o->inputs, FabricOption::Required);
  auto* profile = add_profile_option(*cmd, o->profile, "for the placement's nodes");
  auto* dir = add_nodes_dir_option(*cmd, o->nodes_dir, "the profile follows the hardware");
  profile->excludes(dir);
  auto* nodes = add_nodes_option(*cmd, o->nodes, "the placement, in rank order");
  auto* measured = add_measured_option(*cmd, o->measured, "each run against the prediction for its hosts, and why it "
                                                          "fell short (instead of --nodes)");
  nodes->excludes(measured);
  cmd->add_option("--compare", o->compare, "a second placement to put side by side");
  cmd->add_option("--sizes", o->sizes, "message sizes (nccl-tests' size), K/M/G = 2^10/2^20/2^30")
      ->capture_default_str();
  // Any case, as NCCL_ALGO takes them ("Ring", "NVLSTree").
  cmd->add_option("--algo", o->algo, "auto (as NCCL chooses), ring, tree, nvls or nvlstree")
      ->transform(one_of({"auto", "ring", "tree", "nvls", "nvlstree"}, true))
      ->capture_default_str();
  cmd->add_option("--collective", o->collective, "allreduce, reducescatter, allgather or broadcast")
      ->transform(one_of({"allreduce", "reducescatter", "allgather", "broadcast"}, true))
      ->capture_default_str();
  cmd->add_option("--routing", o->routing,
                  "routing: lft (tables from --lft or a snapshot of `discover fabric --routes`), minhop (D-mod-K), ftree "
                  "or adaptive")
      ->transform(one_of({"lft", "minhop", "ftree", "adaptive"}, true))
      ->capture_default_str();
  cmd->add_option("--lft", o->lft, "forwarding tables (dump_fts / ibroute output) for --routing lft")
      ->check(CLI::ExistingFile);
  cmd->add_option("--busy-jobs", o->busy_jobs,
                  "jobs running next door, one `HOSTLIST COLLECTIVE SIZE` a line: their flows share the cables")
      ->check(CLI::ExistingFile);
  add_nvlink_domains_option(*cmd, o->nvlink_domains,
                            "on a multi-node NVLink profile (gb200-nvl72) NCCL's nodes are these domains");
  add_json_flag(*cmd, o->json, "with every bottleneck");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace slurmtopo::cli
