// Placement without topology (and for TopoOptional jobs that do not ask --switches):
// select/cons_tres's _eval_nodes, a best fit over runs of consecutive usable nodes in node
// table order. A run ends at an unusable node or where the node weight changes; the lightest
// run is used first, then among equal weights the smallest run that fits (first on ties), or,
// if none fits, the largest, and so on until the job is covered.
#include <string>

#include "simulate/scheduler/slurm_select_model.h"
#include "slurm/hostlist.h"

namespace slurmtopo::select_detail {

namespace {

struct Run {
  int start = 0, end = 0;  // node indices, inclusive
  int nodes = 0;
  int64_t cpus = 0;
  uint64_t weight = 0;
};

}  // namespace

bool eval_flat(Eval& e) {
  const auto& m = e.m;
  const int N = static_cast<int>(e.node_map.size());
  e.ex.algorithm = "no topology: consecutive best fit";

  std::vector<Run> runs;
  bool open = false;
  for (int i = 0; i < N; ++i) {
    const bool usable = e.node_map[i] && e.avail_cpus[i] > 0;
    if (usable && open && m.weight[i] != runs.back().weight) {
      runs.back().end = i - 1;
      open = false;
    }
    if (usable) {
      if (!open) runs.push_back({i, i, 0, 0, m.weight[i]}), open = true;
      ++runs.back().nodes;
      runs.back().cpus += e.avail_cpus[i];
    } else if (open) {
      runs.back().end = i - 1;
      open = false;
    }
  }
  if (open) runs.back().end = N - 1;

  std::vector<int> avail_cpu_per_node = e.avail_cpus;
  std::vector<char> chosen(N, 0);
  int rem_nodes = std::max(e.min_nodes, e.req_nodes), min_rem_nodes = e.min_nodes, max_nodes = e.max_nodes;
  int64_t rem_cpus = e.min_cpus, rem_max_cpus = e.min_cpus;
  auto done = [&] { return rem_nodes <= 0 && rem_cpus <= 0; };

  while (!runs.empty() && max_nodes > 0) {
    int best = -1;
    int64_t best_cpus = 0;
    int best_nodes = 0;
    bool best_sufficient = false;
    uint64_t best_weight = 0;
    for (int i = 0; i < static_cast<int>(runs.size()); ++i) {
      const Run& run = runs[i];
      if (run.nodes == 0) continue;
      const bool sufficient = run.cpus >= rem_cpus && enough_nodes(run.nodes, rem_nodes, e.min_nodes, e.req_nodes);
      bool new_best = best_nodes == 0 || run.weight < best_weight;
      if (!new_best && run.weight == best_weight &&
          ((sufficient && !best_sufficient) || (sufficient && run.cpus < best_cpus) || (!sufficient && run.cpus > best_cpus)))
        new_best = true;
      if (new_best) {
        best = i;
        best_cpus = run.cpus;
        best_nodes = run.nodes;
        best_sufficient = sufficient;
        best_weight = run.weight;
      }
    }
    if (best_nodes == 0) break;
    Run& run = runs[best];
    // A one-node remainder takes the node with the fewest CPUs that still covers it.
    if (rem_nodes <= 1) {
      int fit = -1, fit_size = 0;
      for (int i = run.start; i <= run.end; ++i) {
        if (chosen[i] || !e.node_map[i] || avail_cpu_per_node[i] < rem_cpus) continue;
        if (fit == -1 || avail_cpu_per_node[i] < fit_size) {
          fit = i;
          fit_size = avail_cpu_per_node[i];
          if (fit_size == rem_cpus) break;
        }
      }
      if (fit != -1)
        for (int i = run.start; i <= run.end; ++i)
          if (i != fit) avail_cpu_per_node[i] = 0;
    }
    std::vector<std::string> taken;
    for (int i = run.start; i <= run.end; ++i) {
      if (max_nodes == 0 || done()) break;
      if (chosen[i] || !e.node_map[i]) continue;
      const int avail = avail_cpu_per_node[i];
      if (avail <= 0) continue;
      if (max_nodes == 1 && avail < rem_cpus) continue;
      const int cpus = cpus_to_use(e, avail, rem_max_cpus, min_rem_nodes);
      rem_cpus -= cpus;
      rem_max_cpus -= cpus;
      chosen[i] = 1;
      --rem_nodes;
      --min_rem_nodes;
      --max_nodes;
      taken.push_back(m.names[i]);
    }
    e.ex.steps.push_back({m.names[run.start] + ".." + m.names[run.end], kInfinite, run.nodes,
                          static_cast<int>(taken.size()),
                          "weight " + std::to_string(run.weight) + (best_sufficient ? ", smallest run that fits" : ", largest run")});
    if (done()) {
      e.node_map = chosen;
      e.leaf_count = static_cast<int>(e.ex.steps.size());
      return true;
    }
    run.cpus = 0;
    run.nodes = 0;
  }
  if (rem_cpus <= 0 && enough_nodes(0, rem_nodes, e.min_nodes, e.req_nodes)) {
    e.node_map = chosen;
    e.leaf_count = static_cast<int>(e.ex.steps.size());
    return true;
  }
  e.reason = "not enough usable nodes";
  return false;
}

}  // namespace slurmtopo::select_detail
