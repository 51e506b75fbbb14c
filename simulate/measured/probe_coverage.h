// Which of a probe's placements were measured: each step of DIR/probe.json against the runs read
// from DIR. A step is found by its output file's name (DIR/<name>.out), so the directory can be
// copied off the cluster.
#pragma once

#include <string>
#include <vector>

#include "simulate/measured/measured_compare.h"
#include "simulate/measured/probe_plan.h"

namespace slurmtopo {

enum class StepState {
  Measured,    // a run on the placement's hosts, to its last size
  CutShort,    // a run on its hosts that stopped before its average line (time limit, a hang)
  OtherHosts,  // the output holds a run, on other hosts than the placement's
  NoRun,       // the output holds no run: the step failed (its first line says why)
  NoOutput,    // no output file: the step never ran (the job ended, or it is still queued)
};
const char* to_string(StepState state);  // "measured", "cut short", "other hosts", "no run", "no output"

struct ProbeStep {
  ProbePlacement placement;
  StepState state = StepState::NoOutput;
  int run = -1;         // its run among `runs`, where one was read
  std::string detail;   // NoRun: the output's first line; OtherHosts: the hosts it ran on
};

// `runs` were read from `dir` (RunComparison::source is "file:line").
std::vector<ProbeStep> probe_coverage(const std::string& dir, const std::vector<ProbePlacement>& placements,
                                      const std::vector<RunComparison>& runs);

}  // namespace slurmtopo
