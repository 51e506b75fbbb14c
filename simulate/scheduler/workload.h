// A workload to replay: jobs as a scheduler sees them (when submitted, how many whole nodes,
// the time limit it plans with, how long they really run). Read from a Standard Workload
// Format trace (simulate/whatif/swf_workload.h) or drawn from a seed (simulate/whatif/synthetic_workload.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace slurmtopo {

struct WorkloadJob {
  int64_t id = 0;
  int64_t submit = 0;      // s from the trace's start
  int64_t run_time = 0;    // s it runs once started
  int64_t time_limit = 0;  // s the scheduler plans with (the requested time; ≥ run_time)
  int nodes = 1;           // whole nodes
  int line = 0;            // in the trace; 0 for synthetic jobs
};

struct Workload {
  std::string source;
  std::vector<WorkloadJob> jobs;  // by submit time, then trace order
  int skipped_unknown = 0;        // no usable size or run time (-1 fields)
  int skipped_too_large = 0;      // more nodes than the partition has: Slurm would reject them
};

}  // namespace slurmtopo
