// A workload replayed through one placement policy: FCFS with EASY backfill
// (simulate/scheduler/backfill_scheduler.h) where each job's nodes are what the policy gives it on the
// nodes free at that moment (running jobs busy, drained nodes down). For each multi-node job
// the best placement on the same free nodes is noted, and afterwards both are costed
// (predicted allreduce busbw) where they differ, to give the job's slowdown.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "simulate/collective/placement_costs.h"
#include "simulate/scheduler/backfill_scheduler.h"
#include "simulate/scheduler/workload.h"
#include "simulate/whatif/replay_metrics.h"
#include "simulate/whatif/whatif_case.h"
#include "simulate/whatif/whatif_policies.h"

namespace slurmtopo {

struct ReplayOptions {
  Policy policy = Policy::Slurm;
  uint64_t seed = 1;        // for the random policy
  BackfillOptions backfill;
  unsigned threads = 2;     // for the predictions
  // Cost every multi-node job's placement, not only those that differ from the best one:
  // what comparing busbw before and after an edit needs.
  bool cost_every_job = false;
};

struct Replay {
  std::vector<ScheduledJob> schedule;
  std::vector<double> slowdown;  // per job; NaN for jobs not started or on one node
  std::vector<double> busbw;     // per job with cost_every_job; NaN where not predicted
  ReplayMetrics metrics;
};

// `costs` may be null: no prediction, no slowdown. Progress counts scheduled jobs.
Replay replay_workload(const WhatifCase& c, const Workload& workload, const ReplayOptions& options,
                       PlacementCosts* costs, const ReplayProgress& progress = {});

}  // namespace slurmtopo
