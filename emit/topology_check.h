// Every check slurmctld applies to topology.conf (../shared/reference/slurm.md), run before a
// file is written: errors are what slurmctld refuses or silently breaks on, warnings what it
// logs and works around.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "slurm/topology_conf.h"

namespace slurmtopo {

struct TopologyCheck {
  std::vector<TopologyIssue> errors;
  std::vector<TopologyIssue> warnings;
  bool ok() const { return errors.empty(); }
};

struct TopologyCheckOptions {
  // Slurm's node names (slurm.conf), sorted by natural_less; nullopt when unknown.
  std::optional<std::vector<std::string>> slurm_nodes;
  // Roots expected on purpose (one per separate fabric): more roots than this is a warning.
  int expected_roots = 1;
};

TopologyCheck check_topology(const ParsedTopology& parsed, const TopologyCheckOptions& options);

}  // namespace slurmtopo
