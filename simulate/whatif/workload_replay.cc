#include "simulate/whatif/workload_replay.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "simulate/whatif/best_placement.h"

namespace slurmtopo {

Replay replay_workload(const WhatifCase& c, const Workload& workload, const ReplayOptions& options,
                       PlacementCosts* costs, const ReplayProgress& progress) {
  Replay r;
  const auto& jobs = workload.jobs;
  std::vector<std::vector<int>> best(jobs.size());
  uint64_t draw = 0;
  auto place = [&](const WorkloadJob& job, const std::vector<char>& busy) {
    return place_by(c, options.policy, job.nodes, busy, options.seed * 1000003u + draw++).nodes;
  };
  auto started = [&](int j, const std::vector<char>& busy) {
    if (jobs[j].nodes > 1 && costs) best[j] = best_placement(c.leaves, busy, jobs[j].nodes);
  };
  r.schedule = schedule_easy_backfill(jobs, c.down, place, options.backfill, started, progress);

  r.slowdown.assign(jobs.size(), std::numeric_limits<double>::quiet_NaN());
  r.busbw.assign(jobs.size(), std::numeric_limits<double>::quiet_NaN());
  if (costs) {
    // Only jobs whose nodes differ from the best placement need a prediction; the rest are 1.
    std::vector<std::vector<std::string>> batch;
    std::vector<int> who;  // jobs whose placement and best placement are batch[2k], batch[2k+1]
    std::vector<int> own;  // with cost_every_job: jobs placed as the best, batch[2 * who.size() + k]
    for (size_t j = 0; j < jobs.size(); ++j) {
      const ScheduledJob& s = r.schedule[j];
      if (s.start < 0 || s.nodes.size() < 2) continue;
      std::vector<int> sorted = s.nodes;
      std::sort(sorted.begin(), sorted.end());
      if (best[j].empty() || sorted == best[j]) {
        r.slowdown[j] = best[j].empty() ? std::numeric_limits<double>::quiet_NaN() : 1.0;
        if (options.cost_every_job) own.push_back(static_cast<int>(j));
        continue;
      }
      batch.push_back(c.names_of(sorted));
      batch.push_back(c.names_of(best[j]));
      who.push_back(static_cast<int>(j));
    }
    for (int j : own) {
      std::vector<int> sorted = r.schedule[j].nodes;
      std::sort(sorted.begin(), sorted.end());
      batch.push_back(c.names_of(sorted));
    }
    const std::vector<double> busbw = costs->busbw(batch, options.threads);
    for (size_t k = 0; k < who.size(); ++k) {
      const double actual = busbw[2 * k], ideal = busbw[2 * k + 1];
      r.slowdown[who[k]] = actual > 0 ? ideal / actual : std::numeric_limits<double>::quiet_NaN();
      if (options.cost_every_job) r.busbw[who[k]] = actual;
    }
    for (size_t k = 0; k < own.size(); ++k) r.busbw[own[k]] = busbw[2 * who.size() + k];
  }
  r.metrics = replay_metrics(jobs, r.schedule, c.leaves, c.down, r.slowdown,
                             options.cost_every_job ? r.busbw : std::vector<double>{});
  return r;
}

}  // namespace slurmtopo
