// The findings of performance.measured (measured_causes.h declares the kinds): one per run below,
// above or with wrong results, and one per kind of log evidence with every host it was seen on.
#pragma once

#include <string>
#include <vector>

#include "simulate/measured/measured_compare.h"
#include "simulate/measured/probe_coverage.h"

namespace slurmtopo {

struct MeasuredFinding {
  MeasuredKind kind;
  std::string subject;
  std::string detail;
  int count = 1;
};
std::vector<MeasuredFinding> measured_findings(const std::vector<RunComparison>& runs);

// probe-step-unmeasured: one per probe step without a complete run on its hosts, saying what
// its output holds and what to do.
std::vector<MeasuredFinding> probe_step_findings(const std::vector<ProbeStep>& steps);

}  // namespace slurmtopo
