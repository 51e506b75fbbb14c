// `slurmtopo place`: the nodes Slurm would give one job, from a topology.conf (or a fabric),
// the Slurm nodes with their weights, and the nodes already busy. Exit 0 with the hostlist,
// 3 when the job could not start now (the reason on stderr), 2 on bad input.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/select_options.h"
#include "emit/emit.h"
#include "simulate/scheduler/scheduler.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

namespace {

struct PlaceOptions {
  std::string topology;
  ClusterInputs inputs;
  std::string nodes, weights, busy, cpus = "1";
  int count = 0;
  bool exclusive = false;
  std::string switches;
  std::string topology_param;
  std::string version = "22.05";
  int max_switch_wait = 300;
  bool explain = false;
};

SelectSetup build_setup(const PlaceOptions& o) {
  SelectSetup setup;
  setup.version = parse_slurm_version(o.version);
  setup.params = parse_topology_params(o.topology_param);
  setup.max_switch_wait = o.max_switch_wait;
  const auto names = hostnames("--nodes", o.nodes);
  setup.nodes = slurm_nodes(names, o.weights, o.cpus);
  if (!o.topology.empty()) {
    SlurmTopologyFile file = parse_topology_file(read_file(o.topology), o.topology);
    setup.tree = std::move(file.tree);
    setup.block = std::move(file.block);
  } else if (!o.inputs.fabric_files.empty()) {
    Cluster cluster = load_cluster(o.inputs);
    TopologyRequest request;
    request.slurm_nodes = names;
    request.command = "slurmtopo place";
    TopologyPlan plan = plan_topology(cluster, request);
    setup.tree = parse_topology_conf(plan.text, "topology.conf from " + o.inputs.fabric_files.front());
  }
  return setup;
}

void run_place(const PlaceOptions& o) {
  SlurmSelect select(build_setup(o));
  SelectJob job;
  job.nodes = o.count;
  job.exclusive = o.exclusive;
  if (!o.switches.empty()) {
    const size_t at = o.switches.find('@');
    job.switches = static_cast<int>(number("--switches", o.switches.substr(0, at), 1));
    if (at != std::string::npos) job.switch_wait = slurm_time_seconds("--switches", o.switches.substr(at + 1));
  }
  std::vector<std::string> busy;
  if (!o.busy.empty()) busy = hostnames("--busy", o.busy);
  SelectResult r = select.place(job, busy);
  if (r.started) std::cout << r.hostlist << "\n";
  if (o.explain) std::cout << format_explanation(r);
  if (!r.started) {
    std::cerr << "slurmtopo: the job cannot start now: " << r.reason << "\n";
    throw Exit{3};
  }
}

}  // namespace

void add_place_command(CLI::App& app) {
  auto o = std::make_shared<PlaceOptions>();
  CLI::App* cmd = app.add_subcommand("place", "The nodes Slurm's select/cons_tres would allocate to a job");
  auto* topo = cmd->add_option("--topology", o->topology, "topology.conf (SwitchName= tree or BlockName= block)")
                   ->check(CLI::ExistingFile);
  auto* fabric = cmd->add_option("--fabric", o->inputs.fabric_files, "build the tree from this fabric instead")
                     ->check(CLI::ExistingFile);
  topo->excludes(fabric);
  cmd->add_option("--node-name-map,--guid-map", o->inputs.name_map, "with --fabric: GUID to host name")
      ->check(CLI::ExistingFile);
  cmd->add_option("--config", o->inputs.site_config, "with --fabric: site.yaml")->check(CLI::ExistingFile);
  cmd->add_option("--nodes", o->nodes, "the partition's nodes (hostlist)")->required();
  cmd->add_option("--weights", o->weights, "node Weight=, 'HOSTLIST=W,...' (others 1)");
  cmd->add_option("--cpus", o->cpus, "usable CPUs per node: N or 'HOSTLIST=N,...'");
  cmd->add_option("--busy", o->busy, "nodes allocated to other jobs (hostlist)");
  cmd->add_option("-N,--count", o->count, "nodes the job asks for (salloc -N)")->required()->check(CLI::PositiveNumber);
  cmd->add_flag("--exclusive", o->exclusive, "whole nodes (salloc --exclusive)");
  cmd->add_option("--switches", o->switches, "maximum leaf switches, N[@max-time]");
  cmd->add_option("--topology-param", o->topology_param, "TopoOptional and/or Dragonfly (comma separated)");
  cmd->add_option("--slurm-version", o->version, "the release slurmctld runs, YY.MM (default 22.05): 24.05+ and 25.11+ rules are modelled");
  cmd->add_option("--max-switch-wait", o->max_switch_wait, "SchedulerParameters=max_switch_wait, seconds")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--explain", o->explain, "say why: top switch, leaf order and distances, weight tiers");
  cmd->callback([o] { run_place(*o); });
}

}  // namespace slurmtopo::cli
