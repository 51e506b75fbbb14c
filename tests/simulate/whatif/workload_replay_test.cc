// A replay through Slurm's placement on the oversubscribed fixture: every job gets its own
// free nodes, the result is the same each time, and slowdowns come from real predictions.
#include "simulate/whatif/workload_replay.h"

#include <doctest/doctest.h>

#include <cmath>

#include "simulate/whatif/synthetic_workload.h"
#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

// No two jobs that overlap in time share a node.
bool exclusive(const std::vector<ScheduledJob>& s) {
  for (size_t i = 0; i < s.size(); ++i)
    for (size_t j = i + 1; j < s.size(); ++j) {
      if (s[i].start < 0 || s[j].start < 0 || s[i].end <= s[j].start || s[j].end <= s[i].start) continue;
      if (s[i].start == s[i].end || s[j].start == s[j].end) continue;
      for (int n : s[i].nodes)
        for (int m : s[j].nodes)
          if (n == m) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("workload replay: Slurm's placement, exclusive nodes, deterministic") {
  const Cluster cluster = oversubscribed_tree();
  WhatifCaseSpec spec;
  spec.drained = {"gpu032"};
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), spec);
  const Workload w = synthetic_workload({150, 32, 11, 1.2});
  PlacementCosts costs(*c.fabric, one_rail(), 1 << 30);
  const Replay a = replay_workload(c, w, {}, &costs);
  const Replay b = replay_workload(c, w, {}, &costs);
  CHECK(a.metrics.started == 150);
  CHECK(exclusive(a.schedule));
  bool sizes = true, same = true, never_down = true, slowdowns = true;
  for (size_t j = 0; j < w.jobs.size(); ++j) {
    sizes &= static_cast<int>(a.schedule[j].nodes.size()) == w.jobs[j].nodes;
    same &= a.schedule[j].start == b.schedule[j].start && a.schedule[j].nodes == b.schedule[j].nodes;
    for (int n : a.schedule[j].nodes) never_down &= c.node_names()[n] != "gpu032";
    if (w.jobs[j].nodes > 1) slowdowns &= std::isfinite(a.slowdown[j]) && a.slowdown[j] > 0;
    else slowdowns &= std::isnan(a.slowdown[j]);
  }
  CHECK(sizes);
  CHECK(same);
  CHECK(never_down);
  CHECK(slowdowns);
  CHECK(a.metrics.slowdown.count == a.metrics.multi_node);
  CHECK(a.metrics.backfilled > 0);  // load 1.2 builds a queue
  CHECK(a.metrics.utilisation > 0.5);
  CHECK(a.metrics.utilisation <= 1.0);
}

TEST_CASE("workload replay: without costs there is no slowdown, the schedule is the same") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  const Workload w = synthetic_workload({60, 32, 4, 0.9});
  PlacementCosts costs(*c.fabric, one_rail(), 1 << 30);
  const Replay with = replay_workload(c, w, {}, &costs);
  const Replay without = replay_workload(c, w, {}, nullptr);
  CHECK(without.metrics.slowdown.count == 0);
  CHECK(with.metrics.mean_wait == without.metrics.mean_wait);
  CHECK(with.metrics.span_leaves == without.metrics.span_leaves);
}

TEST_CASE("workload replay: no topology spans more leaves than Slurm with the tree") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  const Workload w = synthetic_workload({300, 32, 2, 1.0});
  ReplayOptions tree, flat;
  flat.policy = Policy::NoTopology;
  const Replay t = replay_workload(c, w, tree, nullptr);
  const Replay f = replay_workload(c, w, flat, nullptr);
  CHECK(t.metrics.span_leaves < f.metrics.span_leaves);
}

TEST_CASE("workload replay: cost_every_job predicts every multi-node job's busbw") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase c = make_whatif_case(cluster, partition_of(cluster), {});
  const Workload w = synthetic_workload({80, 32, 5, 0.9});
  PlacementCosts costs(*c.fabric, one_rail(), 1 << 30);
  ReplayOptions every;
  every.cost_every_job = true;
  const Replay r = replay_workload(c, w, every, &costs);
  bool all = true;
  for (size_t j = 0; j < w.jobs.size(); ++j)
    all &= (w.jobs[j].nodes > 1) == std::isfinite(r.busbw[j]);
  CHECK(all);
  CHECK(r.metrics.busbw.count == r.metrics.multi_node);
  CHECK(replay_workload(c, w, {}, &costs).metrics.busbw.count == 0);
}
