// slurmd's rules for gres.conf and the NodeName lines it must agree with (slurm.md, and what
// a real 22.05 slurmd did in tests/integration/slurmd_gres_test.sh), run before a file is
// written. Errors are what slurmd refuses, drains the node for, or — like -1 at the wrong
// Links index — accepts silently and then schedules wrongly; warnings are what it tolerates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emit/gres_lines.h"
#include "slurm/gres_conf.h"

namespace slurmtopo {

struct GresCheck {
  std::vector<GresIssue> errors;
  std::vector<GresIssue> warnings;
  bool ok() const { return errors.empty(); }
};

// Nodes with the same NodeName line and the same gres.conf lines are checked once, so a
// mistake in a class's line is one issue naming the hostlist, not one per node.
GresCheck check_gres(const ParsedGres& gres, const ParsedNodes& nodes, SlurmRelease version);

}  // namespace slurmtopo
