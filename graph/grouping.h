// Which hosts Slurm should see under one leaf switch.
//
// Hosts that reach exactly the same set of leaves form one group: a plain leaf, or the rail
// leaves of a rail-optimized scalable unit. Two things would break that naive rule and are
// handled here: a storage switch that carries one HCA of hosts from many groups (it would
// merge unrelated hosts), and a host with a missing or miscabled rail (it would become a
// group of its own).
#pragma once

#include <vector>

namespace slurmtopo {

struct GroupingResult {
  std::vector<bool> secondary;                 // per switch: spans hosts of several groups
  std::vector<int> host_group;                 // per host; -1 if it reaches no switch
  std::vector<std::vector<int>> group_leaves;  // per group: its leaf set, sorted
  struct Deviation {
    int host;
    int group;
    std::vector<int> missing;  // group leaves the host has no cable to
    std::vector<int> foreign;  // leaves the host reaches outside its group
  };
  std::vector<Deviation> deviations;
};

// host_switches[h]: the host-facing switches host h has cables to (any order, may repeat).
// Groups are numbered in order of their first host.
GroupingResult group_hosts(const std::vector<std::vector<int>>& host_switches,
                           int num_switches);

}  // namespace slurmtopo
