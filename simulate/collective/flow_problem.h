// One max-min problem of a placement's flows (and its neighbours'), and what its solution
// says about the placement: the slowest channel's rate and the resources that hold it.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "simulate/collective/contention.h"
#include "simulate/network/flow_sharing.h"

namespace slurmtopo {

// A rate nothing bounds yet: the start of every minimum over flows, links and channels.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// One max-min problem: resources (their capacities), flows standing for `count` channels each,
// and names made only for the resources that end up reported. Unless `per_flow`, a flow's
// weight on each resource is count × its share there, so a solved rate is per channel.
struct Problem {
  std::vector<double> capacity;  // GB/s per resource
  FlowSet flows;
  std::vector<double> count;
  // Every flow stands for the same number of channels, left out of the weights: solved
  // rates are then per flow, count[f] times a channel's (the common case, and the cheaper).
  bool per_flow = false;
  std::function<std::string(int)> name;
  // Which job each flow belongs to: 0 the placement, 1… jobs next door. Empty: all 0. Only the
  // placement's flows are reported.
  std::vector<int> job;

  bool mine(size_t f) const { return job.empty() || job[f] == 0; }

  double channels(size_t f) const { return per_flow ? count[f] : 1.0; }
};

struct Solved {
  double rate = std::numeric_limits<double>::infinity();  // the slowest flow's, per channel
  std::vector<Bottleneck> bottlenecks;  // the worst kReported
  int bottleneck_count = 0;             // all the resources that hold a slowest flow
};

inline constexpr size_t kReported = 10;  // bottlenecks named per algorithm, worst first
// A flow this close above the slowest (relative) is held as the slowest is.
inline constexpr double kSlowestTie = 1e-9;

// Reports the resources that hold the slowest of the placement's flows in `problem` as shared
// in `s`, with what they would be offered at `expected` (the rates NCCL expects, per flow as
// solved).
Solved solve_problem(const Problem& problem, const Sharing& s, const std::vector<double>& expected);

}  // namespace slurmtopo
