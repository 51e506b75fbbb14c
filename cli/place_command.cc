// `slurmtopo place`: the nodes Slurm would give one job, from a topology file (or a fabric),
// the Slurm nodes with their weights, and the nodes already busy. Exit 0 with the hostlist,
// 3 when the job could not start now (the reason on stderr), 2 on bad input.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "report/report.h"
#include "simulate/whatif/whatif.h"

namespace slurmtopo::cli {

void add_place_command(CLI::App& app) {
  struct Options {
    PlaceRequest request;
    bool explain = false;
    std::string slurm_version;
  };
  auto o = std::make_shared<Options>();
  PlaceRequest& r = o->request;
  CLI::App* cmd = app.add_subcommand("place", "The nodes Slurm's select/cons_tres would allocate to a job");
  auto* topo = cmd->add_option("--topology", r.topology, "topology.conf (SwitchName= tree or BlockName= block)")
                   ->check(CLI::ExistingFile);
  add_fabric_options(*cmd, r.inputs, FabricOption::Optional, "build the tree from this fabric instead")->excludes(topo);
  cmd->add_option("--nodes", r.nodes, "the partition's nodes (hostlist; with --slurm-conf, a subset of its nodes)");
  add_slurm_conf_option(*cmd, r.slurm_conf, "Slurm's nodes with their Weight= and CPUs= (the partition unless --nodes)");
  cmd->add_option("--weights", r.weights, "node Weight=, 'HOSTLIST=W,...' (others 1)");
  cmd->add_option("--cpus", r.cpus, "usable CPUs per node: N or 'HOSTLIST=N,...' (default: slurm.conf's CPUs=, else 1)");
  cmd->add_option("--busy", r.busy, "nodes allocated to other jobs (hostlist)");
  cmd->add_option("-N,--count", r.count, "nodes the job asks for (salloc -N)")->required()->check(CLI::PositiveNumber);
  cmd->add_flag("--exclusive", r.exclusive, "whole nodes (salloc --exclusive)");
  cmd->add_option("--switches", r.switches, "maximum leaf switches, N[@max-time]");
  cmd->add_option("--topology-param", r.topology_param, "TopoOptional and/or Dragonfly (comma separated)");
  add_slurm_version_option(*cmd, o->slurm_version, "the node selection slurmctld runs (24.05, 25.11 and 26.05 rules are modelled)");
  cmd->add_option("--max-switch-wait", r.max_switch_wait, "SchedulerParameters=max_switch_wait, seconds")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--explain", o->explain, "say why: top switch, leaf order and distances, weight tiers");
  cmd->callback([o] {
    o->request.release = resolve_release(o->slurm_version);
    if (const int code = report_place(run_place(o->request), o->explain, std::cout, std::cerr)) throw Exit{code};
  });
}

}  // namespace slurmtopo::cli
