// Where one job lands under each placement policy, on the same free nodes:
//   slurm        Slurm's select/cons_tres with the topology.conf in force
//   no-topology  Slurm without a topology plugin (consecutive best fit in node order)
//   best         the fewest switches the free nodes allow (simulate/whatif/best_placement.h)
//   random       any free nodes, drawn from a seed
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/whatif/whatif_case.h"

namespace slurmtopo {

enum class Policy { Slurm, NoTopology, Best, Random };
const char* to_string(Policy policy);
inline constexpr Policy kPolicies[] = {Policy::Slurm, Policy::NoTopology, Policy::Best, Policy::Random};

struct PolicyPlacement {
  Policy policy = Policy::Slurm;
  std::vector<int> nodes;  // node-table indices, ascending; empty when it cannot start
  std::string reason;      // why it cannot start
  int leaves = 0, groups = 0;  // of the emitted topology the placement spans
};

// `busy` indexed like c.node_names(); down nodes count as busy.
PolicyPlacement place_by(const WhatifCase& c, Policy policy, int count, const std::vector<char>& busy, uint64_t seed);

}  // namespace slurmtopo
