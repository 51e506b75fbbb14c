#include "simulate/whatif/place_plan.h"

#include "base/files.h"
#include "base/numbers.h"
#include "emit/topology_plan.h"
#include "simulate/scheduler/slurm_nodes.h"
#include "slurm/hostlist.h"
#include "slurm/time_string.h"
#include "slurm/topology_file.h"

namespace slurmtopo {

namespace {

SelectSetup setup_for(const PlaceRequest& r) {
  SelectSetup setup;
  setup.version = parse_slurm_version(r.version);
  setup.params = parse_topology_params(r.topology_param);
  setup.max_switch_wait = r.max_switch_wait;
  const auto names = expand_hostlist_at(r.nodes, "--nodes");
  setup.nodes = slurm_nodes(names, r.weights, r.cpus);
  if (!r.topology.empty()) {
    SlurmTopologyFile file = parse_topology_file(read_file(r.topology), r.topology);
    setup.tree = std::move(file.tree);
    setup.block = std::move(file.block);
  } else if (!r.inputs.fabric_files.empty()) {
    Cluster cluster = load_cluster(r.inputs);
    TopologyRequest request;
    request.slurm_nodes = names;
    request.command = "slurmtopo place";
    TopologyPlan plan = plan_topology(cluster, request);
    setup.tree = parse_topology_conf(plan.text, "topology.conf from " + r.inputs.fabric_files.front());
  }
  return setup;
}

}  // namespace

SelectResult run_place(const PlaceRequest& r) {
  SlurmSelect select(setup_for(r));
  SelectJob job;
  job.nodes = r.count;
  job.exclusive = r.exclusive;
  if (!r.switches.empty()) {
    const size_t at = r.switches.find('@');
    job.switches = static_cast<int>(parse_whole_number("--switches", r.switches.substr(0, at), 1));
    if (at != std::string::npos) job.switch_wait = slurm_time_seconds("--switches", r.switches.substr(at + 1));
  }
  std::vector<std::string> busy;
  if (!r.busy.empty()) busy = expand_hostlist_at(r.busy, "--busy");
  return select.place(job, busy);
}

}  // namespace slurmtopo
