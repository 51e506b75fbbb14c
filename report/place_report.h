// What `slurmtopo place` prints: the hostlist Slurm would allocate, and with --explain why —
// the top switch (its level numbered as topology.conf numbers it, leaves = 1), the weight
// tiers, the leaves in the order they were taken with their distances.
#pragma once

#include <string>

#include <ostream>

#include "base/exit_codes.h"
#include "simulate/scheduler/slurm_select.h"
#include "simulate/whatif/place_plan.h"

namespace slurmtopo {

std::string place_report(const SelectResult& result, bool explain);

// "predicted: allreduce 1 GiB busbw 829.4 GB/s (nvls/Simple, gb200-nvl72, 1 NVLink domain),
// limited by …": --profile's line, on stdout with --explain, else on stderr.
std::string prediction_line(const PlacePrediction& prediction);

// Not bad input, but no allocation: the caller may retry later (pending), or never (slurmctld
// refuses the job at submission).
constexpr int kCannotStartExit = exit_code::kAttention;

// The hostlist (and --explain's reasons, and the prediction) on `out`; the topology file's warnings and, for a job
// that does not start, whether it waits or never runs and why, on `err`. Returns the exit code:
// 0 allocated, kCannotStartExit otherwise.
int report_place(const PlaceResult& result, bool explain, std::ostream& out, std::ostream& err);

}  // namespace slurmtopo
