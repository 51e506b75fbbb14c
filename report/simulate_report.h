// What `slurmtopo simulate` prints: per message size the algorithm NCCL would run, the time,
// algbw/busbw and what limits it (text shows the first limit, JSON every bottleneck); with a
// second placement, the two side by side.
#pragma once

#include <string>

#include "simulate/collective/simulation.h"

namespace slurmtopo {

std::string simulate_report(const SimulationResult& result, bool json);

}  // namespace slurmtopo
