// A seeded workload shaped like a GPU cluster's: mostly small jobs, sizes powers of two,
// arrivals as a Poisson process at the rate that keeps the nodes about `load` busy, run times
// log-uniform from minutes to hours, and time limits that overestimate them as users do.
// Same (count, nodes, seed, load) → the same jobs on every platform.
#pragma once

#include <cstdint>

#include "simulate/scheduler/workload.h"

namespace slurmtopo {

struct SyntheticSpec {
  int jobs = 1000;
  int cluster_nodes = 64;  // jobs ask for at most a quarter of them
  uint64_t seed = 1;
  double load = 0.9;  // offered node-seconds / available node-seconds
};

Workload synthetic_workload(const SyntheticSpec& spec);

}  // namespace slurmtopo
