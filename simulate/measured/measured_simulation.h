// `slurmtopo simulate --measured PATH` as one call: the cluster, the hardware (a profile, or the
// node exports of the runs' hosts, whose findings then count as causes), the routing, and every
// run in PATH compared with its prediction (measured_compare.h).
#pragma once

#include <string>
#include <vector>

#include "graph/cluster_inputs.h"
#include "simulate/measured/measured_findings.h"

namespace slurmtopo {

struct MeasuredRequest {
  ClusterInputs inputs;
  std::string profile;      // a shipped name or a YAML file; or else
  std::string nodes_dir;    // node exports of the runs' hosts
  std::string measured;     // an nccl-tests output (with its NCCL log lines), or a directory of them
  RoutingKind routing = RoutingKind::MinHop;
};

struct MeasuredResult {
  std::string profile;
  std::vector<RunComparison> runs;       // file order
  std::vector<MeasuredFinding> findings;
  std::vector<std::string> warnings;     // the node data's
};

// InputError: neither or both of profile and nodes_dir; the readers' errors; node exports
// missing for a run's host.
MeasuredResult run_measured(const MeasuredRequest& request);

}  // namespace slurmtopo
