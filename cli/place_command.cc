// `slurmtopo place`: the nodes Slurm would give one job, from a topology file (or a fabric),
// the Slurm nodes with their weights, and the nodes already busy. Exit 0 with the hostlist,
// 3 when the job could not start now (the reason on stderr), 2 on bad input.
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
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
  cmd->footer(exit_status_text("the job starts: its nodes on stdout", "bad input (the file and line named on stderr)",
                               {{kCannotStartExit, "the job cannot start now (pending), or never (slurmctld refuses it when submitted); why on stderr"}}) +
              "\n" +
              examples_text({{"slurmtopo place --topology /etc/slurm/topology.conf --nodes 'gpu[001-064]' -N 16 "
                              "--busy 'gpu[001-010]' --exclusive --explain",
                              "the 16 nodes slurmctld would give the job, and why"},
                             {"slurmtopo place --topology blocks.conf --fabric fabric.topo --nodes 'gb[001-144]' -N 32 "
                              "--segment 16 --profile gb200-nvl72 --nvlink-domains nvl72.domains --explain",
                              "where topology/block puts a 32-node job in 16-node segments, and its predicted busbw"}}));
  add_topology_input_option(*cmd, r.topology, "place as slurmctld would with it");
  add_fabric_options(*cmd, r.inputs, FabricOption::Optional,
                     "build the tree from this fabric instead; with --topology, only for --profile's prediction");
  add_nodes_option(*cmd, r.nodes, "the partition (with --slurm-conf, a subset of its nodes)");
  add_slurm_conf_option(*cmd, r.slurm_conf, "Slurm's nodes with their Weight= and CPUs= (the partition unless --nodes)");
  add_job_options(*cmd, {&r.weights, &r.busy, &r.topology_param, ""});
  cmd->add_option("--cpus", r.cpus, "usable CPUs per node: N or 'HOSTLIST=N,...' (default: slurm.conf's CPUs=, else 1)");
  cmd->add_option("-N,--count", r.count, "nodes per job (salloc -N): what this job asks for")->required()->check(whole_number(1));
  cmd->add_flag("--exclusive{node}", r.exclusive,
                "whole nodes (salloc --exclusive); --exclusive=topo: whole base blocks (topology/block, 24.05+)");
  cmd->add_option("--busy-topo", r.busy_topo,
                  "busy nodes of jobs that keep their base blocks whole (--exclusive=topo, or Exclusive=TOPO partitions)");
  cmd->add_option("--switches", r.switches, "maximum leaf switches, N[@max-time]");
  cmd->add_option("--segment", r.segment, "topology/block: place the job in segments of N nodes, each in one block (24.05+)")
      ->check(whole_number(1));
  cmd->add_flag("--consolidate-segments", r.consolidate_segments,
                "with --segment: every segment inside the one block that holds the whole job (25.11+)");
  cmd->add_flag("--spread-segments", r.spread_segments, "with --segment: no two segments share a base block (25.11+)");
  add_slurm_version_option(*cmd, o->slurm_version, "the node selection slurmctld runs (24.05, 25.11 and 26.05 rules are modelled)");
  cmd->add_option("--max-switch-wait", r.max_switch_wait, "SchedulerParameters=max_switch_wait, seconds")
      ->check(whole_number(0));
  cmd->add_flag("--explain", o->explain, "say why: top switch, leaf order and distances, weight tiers");
  add_profile_option(*cmd, r.profile, "predict the allocation's allreduce busbw on --fabric (stderr, or with --explain)");
  cmd->add_option("--size", r.size, "allreduce message size for the predicted busbw")->capture_default_str();
  add_nvlink_domains_option(*cmd, r.nvlink_domains,
                            "on a multi-node NVLink profile (gb200-nvl72) the busbw counts a job's domains, not its nodes");
  cmd->callback([o] {
    o->request.release = resolve_release(o->slurm_version);
    if (const int code = report_place(run_place(o->request), o->explain, std::cout, std::cerr)) throw Exit{code};
  });
}

}  // namespace slurmtopo::cli
