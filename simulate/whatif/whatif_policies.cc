#include "simulate/whatif/whatif_policies.h"

#include <algorithm>

#include "simulate/whatif/best_placement.h"
#include "simulate/whatif/seeded_random.h"

namespace slurmtopo {

const char* to_string(Policy policy) {
  switch (policy) {
    case Policy::Slurm: return "slurm";
    case Policy::NoTopology: return "no-topology";
    case Policy::Best: return "best";
    case Policy::Random: return "random";
  }
  return "?";
}

PolicyPlacement place_by(const WhatifCase& c, Policy policy, int count, const std::vector<char>& busy, uint64_t seed) {
  PolicyPlacement p;
  p.policy = policy;
  std::vector<char> taken = busy;
  for (size_t i = 0; i < taken.size(); ++i) taken[i] |= c.down[i];
  std::vector<int> free;
  for (size_t i = 0; i < taken.size(); ++i)
    if (!taken[i]) free.push_back(static_cast<int>(i));
  if (static_cast<int>(free.size()) < count) {
    p.reason = "only " + std::to_string(free.size()) + " nodes are free";
    return p;
  }
  SelectJob job;
  job.nodes = count;
  job.exclusive = true;
  switch (policy) {
    case Policy::Slurm:
    case Policy::NoTopology: {
      const SlurmSelect& select = policy == Policy::Slurm ? *c.slurm : *c.no_topology;
      SelectResult r = select.place(job, taken, SelectDetail::NodesOnly);
      if (!r.started) {
        p.reason = r.reason;
        return p;
      }
      p.nodes = std::move(r.node_indices);
      break;
    }
    case Policy::Best:
      p.nodes = best_placement(c.leaves, taken, count);
      if (p.nodes.empty()) p.reason = "no switch has " + std::to_string(count) + " free nodes below it";
      break;
    case Policy::Random: {
      SeededRandom rng(seed);
      rng.shuffle(free);
      p.nodes.assign(free.begin(), free.begin() + count);
      std::sort(p.nodes.begin(), p.nodes.end());
      break;
    }
  }
  std::sort(p.nodes.begin(), p.nodes.end());
  p.leaves = c.leaves.leaves_spanned(p.nodes);
  p.groups = c.leaves.groups_spanned(p.nodes);
  return p;
}

}  // namespace slurmtopo
