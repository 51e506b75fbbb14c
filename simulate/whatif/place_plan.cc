#include "simulate/whatif/place_plan.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/text.h"
#include "emit/topology_check.h"
#include "graph/input_match.h"
#include "slurm/slurm_conf.h"
#include "base/numbers.h"
#include "emit/topology_plan.h"
#include "simulate/scheduler/slurm_nodes.h"
#include "slurm/hostlist.h"
#include "slurm/time_string.h"
#include "slurm/topology_file.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/nvlink_domain.h"

namespace slurmtopo {

namespace {

// The largest number of partition nodes one switch reaches (itself or below it), and the roots:
// what a job that never fits is told.
struct Reach {
  size_t best = 0;
  std::string best_switch;
  int roots = 0;
  std::vector<std::string> lacking;  // partition nodes under no switch, in partition order
};
Reach reach_of(const ParsedTopology& tree, const std::vector<std::string>& partition) {
  const std::set<std::string> wanted(partition.begin(), partition.end());
  const std::vector<std::set<std::string>> below = nodes_below(tree);
  Reach out;
  std::set<std::string> children, covered;
  for (const auto& s : tree.switches) children.insert(s.switches.begin(), s.switches.end());
  for (size_t i = 0; i < tree.switches.size(); ++i) {
    std::set<std::string> under;  // the partition's nodes below it
    std::set_intersection(below[i].begin(), below[i].end(), wanted.begin(), wanted.end(),
                          std::inserter(under, under.end()));
    if (!children.count(tree.switches[i].name)) ++out.roots;
    if (under.size() > out.best) out.best = under.size(), out.best_switch = tree.switches[i].name;
    covered.insert(under.begin(), under.end());
  }
  for (const auto& n : partition)
    if (!covered.count(n)) out.lacking.push_back(n);
  return out;
}

std::string never_reason(const PlaceRequest& r, const SelectSetup& setup, const std::vector<std::string>& partition,
                         const SelectResult& idle) {
  const std::string topology = r.topology.empty() ? "the fabric's topology.conf" : r.topology;
  if (setup.tree) {
    const Reach reach = reach_of(*setup.tree, partition);
    if (reach.lacking.size() == partition.size())
      return "none of the " + counted(partition.size(), "node", "nodes") + " of --nodes is in " + topology +
             ": topology/tree never places a job on nodes under no switch";
    if (static_cast<size_t>(r.count) > reach.best)
      return "no switch of " + topology + " reaches " + std::to_string(r.count) + " of the partition's nodes: " +
             (reach.roots > 1 ? std::to_string(reach.roots) + " roots with no switch above them all, " : "") +
             "the most one switch reaches is " + std::to_string(reach.best) + " (" + reach.best_switch + ")";
  }
  return idle.reason;
}

// `cluster` keeps the fabric's cluster when it is read here (no --topology).
SelectSetup setup_for(const PlaceRequest& r, std::vector<std::string>& warnings, std::optional<Cluster>& cluster_out) {
  SelectSetup setup;
  setup.version = selection_rules(r.release.release);
  setup.params = parse_topology_params(r.topology_param);
  setup.max_switch_wait = r.max_switch_wait;
  std::vector<std::string> names;
  if (!r.nodes.empty()) names = expand_hostlist_at(r.nodes, "--nodes");
  if (!r.slurm_conf.empty()) {
    setup.nodes = slurm_conf_nodes(load_slurm_conf(r.slurm_conf), r.slurm_conf, names, r.weights, r.cpus);
    names.clear();
    for (const auto& n : setup.nodes) names.push_back(n.name);
  } else if (names.empty()) {
    throw InputError("--nodes", 0, "expected the partition's nodes: --nodes HOSTLIST, or --slurm-conf FILE");
  } else {
    setup.nodes = slurm_nodes(names, r.weights, r.cpus);
  }
  if (!r.topology.empty()) {
    SlurmTopologyFile file = parse_topology_file(read_file(r.topology), r.topology);
    // The checks `emit topology` runs before writing a file, on the file given: what slurmctld
    // would refuse stops here, what it logs is said.
    if (file.tree) {
      const TopologyCheck check = check_topology(*file.tree, {});
      if (!check.ok()) throw InputError(r.topology, check.errors.front().line, check.errors.front().message);
      for (const auto& w : check.warnings)
        warnings.push_back(r.topology + (w.line ? ":" + std::to_string(w.line) : "") + ": " + w.message +
                           " (slurmctld logs this and loads the file)");
    }
    setup.tree = std::move(file.tree);
    setup.block = std::move(file.block);
    if (setup.tree) {
      const Reach reach = reach_of(*setup.tree, names);
      const std::vector<std::string>& lacking = reach.lacking;
      if (!lacking.empty() && lacking.size() < names.size()) {
        warnings.push_back(counted(lacking.size(), "node", "nodes") + " of the partition " +
                           (lacking.size() == 1 ? "is" : "are") + " under no switch of " + r.topology + ": " +
                           compress_hostlist(lacking) + "; topology/tree never places a job there (slurmctld: "
                           "\"switches lack access to " + std::to_string(lacking.size()) + " nodes\")");
      }
    }
  } else if (!r.inputs.fabric_files.empty()) {
    Cluster cluster = load_cluster(r.inputs);
    // A node Slurm has that the fabric lacks: said as emit and whatif say it; it is under no
    // switch of the topology.conf, so topology/tree never places a job there.
    if (auto f = match_slurm_nodes(cluster, names, r.slurm_conf.empty() ? "--nodes" : r.slurm_conf,
                                   cluster.guesses, false))
      warnings.push_back(f->detail);
    TopologyRequest request;
    request.slurm_nodes = names;
    request.command = "slurmtopo place";
    TopologyPlan plan = plan_topology(cluster, request);
    setup.tree = parse_topology_conf(plan.text, "topology.conf from " + r.inputs.fabric_files.front());
    cluster_out = std::move(cluster);
  }
  return setup;
}


// The job as salloc of the release reads it: an option that release does not know stops
// here, before any file is read, as salloc stops at it.
SelectJob job_for(const PlaceRequest& r) {
  SelectJob job;
  job.nodes = r.count;
  if (!r.exclusive.empty() && r.exclusive != "node" && r.exclusive != "topo")
    throw InputError("--exclusive", 0, "expected --exclusive (whole nodes) or --exclusive=topo, got '" + r.exclusive + "'");
  job.exclusive = r.exclusive == "node";
  job.exclusive_topo = r.exclusive == "topo";
  if (!r.switches.empty()) {
    const size_t at = r.switches.find('@');
    job.switches = static_cast<int>(parse_whole_number("--switches", r.switches.substr(0, at), 1));
    if (at != std::string::npos) job.switch_wait = slurm_time_seconds("--switches", r.switches.substr(at + 1));
  }
  job.segment = r.segment;
  job.consolidate_segments = r.consolidate_segments;
  job.spread_segments = r.spread_segments;
  // salloc of a release before these options stops at the option; so does place.
  const SlurmRelease have = r.release.release;
  auto require = [&](bool used, const char* option, const std::string& what, SlurmRelease added) {
    if (used && have < added)
      throw InputError(option, 0, what + "needs Slurm " + to_string(added) + " or later (added in " + to_string(added) +
                                      "); the job is for " + release_line(r.release));
  };
  require(r.segment > 0, "--segment", "", SlurmRelease{24, 5});
  require(job.exclusive_topo || !r.busy_topo.empty(), job.exclusive_topo ? "--exclusive" : "--busy-topo",
          "Exclusive=TOPO ", SlurmRelease{24, 5});
  require(r.consolidate_segments || r.spread_segments,
          r.consolidate_segments ? "--consolidate-segments" : "--spread-segments", "", SlurmRelease{25, 11});
  // 26.05's salloc and sbatch stop before submitting (slurm_opt.c); before 26.05 slurmctld
  // takes the job and never places it (eval_nodes_block).
  if (r.segment > 0 && have >= SlurmRelease{26, 5} && r.count > r.segment && r.count % r.segment)
    throw InputError("--segment", 0,
                     "--segment=" + std::to_string(r.segment) + " does not fit the job size (" + std::to_string(r.count) +
                         "): node count must be evenly divisible by segment size (salloc and sbatch of 26.05 refuse "
                         "the job)");
  return job;
}

// The allocation's allreduce busbw at --size on the fabric.
PlacePrediction predict_allocation(const PlaceRequest& r, const Cluster& cluster, const std::vector<std::string>& hosts) {
  const HardwareProfile profile = load_profile(r.profile);
  SimulateOptions options;
  options.sizes = parse_sizes(r.size, "--size");
  HostDomains domains;
  if (!r.nvlink_domains.empty()) {
    domains = load_host_domains(r.nvlink_domains);
    options.nvlink_domains = &domains;
  }
  const Prediction p = predict(cluster, hosts, profile, options);
  return {profile.name, p.sizes.front(), p.nvlink_domains, p.warnings};
}

}  // namespace

PlaceResult run_place(const PlaceRequest& r) {
  const SelectJob job = job_for(r);
  if (!r.profile.empty() && r.inputs.fabric_files.empty())
    throw InputError("--profile", 0, "expected --fabric too: the prediction routes the job's flows over the fabric");
  if (r.profile.empty() && !r.nvlink_domains.empty())
    throw InputError("--nvlink-domains", 0, "expected --profile: the domains shape only the predicted busbw");
  if (!r.topology.empty() && !r.inputs.fabric_files.empty() && r.profile.empty())
    throw InputError("--fabric", 0,
                     "expected either --topology (place with that file) or --fabric (place with the topology.conf "
                     "slurmtopo would emit for it); both only with --profile, where the fabric routes the prediction");
  PlaceResult out;
  std::optional<Cluster> cluster;
  SelectSetup setup = setup_for(r, out.warnings, cluster);
  setup.order = node_table_order(r.release.release, setup.block.has_value(), setup.params);
  SlurmSelect select(setup);
  std::vector<std::string> busy;
  if (!r.busy.empty()) busy = expand_hostlist_at(r.busy, "--busy");
  std::vector<std::string> busy_topo;
  if (!r.busy_topo.empty()) busy_topo = expand_hostlist_at(r.busy_topo, "--busy-topo");
  out.select = select.place(job, busy, busy_topo);
  if (r.segment > 0 && !setup.block)
    out.select.explanation.notes.push_back("--segment is ignored: only topology/block reads it (slurmctld's tree and "
                                           "the plain best fit place the job whole)");
  const SlurmVersion rules = selection_rules(r.release.release);
  out.select.explanation.release = release_line(r.release) +
                                   (to_string(rules) == to_string(r.release.release)
                                        ? ""
                                        : ", whose node selection is " + to_string(rules) + "'s as modelled");
  const size_t partition_size = setup.nodes.size();
  if (!out.select.started && static_cast<size_t>(r.count) > partition_size) {
    // More nodes than the partition has (measured): 24.11.5 refuses the job at submission;
    // 22.05.8 and 26.05.5 keep it pending with reason PartitionConfig (24.05-25.11 assumed as 24.11).
    const std::string asks = "the job asks for " + std::to_string(r.count) + " nodes, the partition has " +
                             std::to_string(partition_size);
    if (r.release.release < SlurmRelease{24, 5} || r.release.release >= SlurmRelease{26, 5}) {
      out.select.reason = asks + " (slurmctld keeps it pending: \"Requested partition configuration not available now\")";
    } else {
      out.never = true;
      out.never_reason = asks;
      out.refusal = "Requested node configuration is not available";
    }
  } else if (!out.select.started && !out.select.waiting_for_switches) {
    // The test slurmctld makes at submission: could it ever start, with the partition idle?
    const SelectResult idle = busy.empty() ? out.select : select.place(job, std::vector<std::string>{});
    if (!idle.started && !idle.waiting_for_switches) {
      out.never = true;
      std::vector<std::string> partition;
      for (const auto& n : setup.nodes) partition.push_back(n.name);
      out.never_reason = never_reason(r, setup, partition, idle);
      // Measured: 22.05 and 26.05 say "node", 24.11 "topology" (25.05 and 25.11 assumed as 24.11,
      // 23.02 to 24.05 as 22.05). In 24.11 to 25.11 only the tree evaluation (_eval_nodes_topo)
      // refuses a job no switch holds with ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE: the
      // Dragonfly one (_eval_nodes_dfly) picks its top switch without counting nodes and then
      // fails with SLURM_ERROR, "node" (real 24.11.5: -N 64 --switches=2 over 62 switched
      // nodes); TopoOptional without --switches does not evaluate the tree at all. 24.11's
      // topology/block says "node" unless the job's --segment is what does not fit (its
      // eval_nodes_block returns SLURM_ERROR for a job no block holds).
      const bool tree_words = !setup.params.dragonfly && (!setup.params.topo_optional || !r.switches.empty());
      const bool topology_words = r.release.release >= SlurmRelease{24, 11} && r.release.release < SlurmRelease{26, 5} &&
                                  (setup.block ? idle.request_unfit : tree_words);
      out.refusal = std::string("Requested ") + (topology_words ? "topology" : "node") + " configuration is not available";
    }
  }
  if (out.select.started && !r.profile.empty()) {
    if (!cluster) cluster = load_cluster(r.inputs);
    std::vector<std::string> hosts;
    for (const auto& n : out.select.nodes) hosts.push_back(n);
    out.predicted = predict_allocation(r, *cluster, hosts);
  }
  return out;
}

}  // namespace slurmtopo
