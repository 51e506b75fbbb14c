// What `slurmtopo place` prints: the hostlist Slurm would allocate, and with --explain why —
// the top switch (its level numbered as topology.conf numbers it, leaves = 1), the weight
// tiers, the leaves in the order they were taken with their distances.
#pragma once

#include <string>

#include "simulate/scheduler/slurm_select.h"

namespace slurmtopo {

std::string place_report(const SelectResult& result, bool explain);

}  // namespace slurmtopo
