// FCFS with EASY backfill, as Slurm's sched/backfill runs it for whole-node jobs: the queue's
// head starts as soon as the placement finds it nodes; when it cannot, it gets a reservation at
// the earliest time enough nodes are planned to be free (running jobs end at their time limit,
// as far as the scheduler knows), and later jobs may start now if they end before that time or
// fit in the nodes the head will not need then. Which nodes a job gets is the placement's
// answer (Slurm's select emulation in a replay), so topology decides fragmentation.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "simulate/scheduler/workload.h"

namespace slurmtopo {

struct ScheduledJob {
  int64_t start = -1;  // -1: never started (larger than the nodes left up)
  int64_t end = -1;
  std::vector<int> nodes;  // node indices as the placement numbers them
  bool backfilled = false;  // started ahead of an earlier job
};

struct BackfillOptions {
  int max_job_test = 500;  // SchedulerParameters=bf_max_job_test, Slurm's default
};

// The nodes for `job` given which are busy (1 = allocated or down), or empty if it cannot
// start now. Called only when enough nodes are free by count.
using PlaceJob = std::function<std::vector<int>(const WorkloadJob& job, const std::vector<char>& busy)>;
// Told about every start, with the busy state the job saw (before its own nodes).
using JobStarted = std::function<void(int job, const std::vector<char>& busy)>;
using ReplayProgress = std::function<void(int started, int total)>;

// `down` marks nodes never available (drained). Jobs in submit order. Deterministic.
std::vector<ScheduledJob> schedule_easy_backfill(const std::vector<WorkloadJob>& jobs, const std::vector<char>& down,
                                                 const PlaceJob& place, const BackfillOptions& options = {},
                                                 const JobStarted& started = {}, const ReplayProgress& progress = {});

}  // namespace slurmtopo
