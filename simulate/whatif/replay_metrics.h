// What a workload replay says about a placement policy: how many jobs were split over leaves
// and groups, how much slower their allreduce is predicted to be than on the best placement
// the same free nodes allowed, how fragmented the free nodes were, how busy the nodes were and
// how long jobs waited.
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/scheduler/backfill_scheduler.h"
#include "simulate/scheduler/leaf_tree.h"
#include "simulate/scheduler/workload.h"

namespace slurmtopo {

struct Distribution {
  int count = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;  // nearest-rank percentiles
};
Distribution distribution(std::vector<double> values);

struct ReplayMetrics {
  int jobs = 0;            // in the workload
  int started = 0;
  int backfilled = 0;      // started ahead of an earlier job
  int multi_node = 0;      // started jobs on more than one node
  int span_leaves = 0;     // started jobs on more than one leaf
  int span_groups = 0;     // ... more than one group (the leaves' parents)
  // best busbw / this placement's busbw, for multi-node jobs; 1 where Slurm's nodes are the
  // best placement's. Empty when no busbw was predicted.
  Distribution slowdown;
  int slowed = 0;          // jobs with a slowdown above 1.05
  // Predicted busbw (GB/s) of multi-node jobs, when every job was costed (replays that
  // compare edits); empty otherwise.
  Distribution busbw;
  double fragmentation = 0;  // time-weighted share of free nodes on leaves that are partly busy
  double utilisation = 0;    // node-seconds used / node-seconds up, first submit to last end
  double mean_wait = 0;      // s, started jobs
  double p90_wait = 0;
  int64_t makespan = 0;      // s, first submit to last end
};

// `slowdowns` and `busbw` per job (NaN or absent: not predicted). `down` marks nodes never up.
ReplayMetrics replay_metrics(const std::vector<WorkloadJob>& jobs, const std::vector<ScheduledJob>& schedule,
                             const LeafTree& leaves, const std::vector<char>& down,
                             const std::vector<double>& slowdowns, const std::vector<double>& busbw = {});

}  // namespace slurmtopo
