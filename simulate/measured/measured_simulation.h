// Measured runs against their predictions as one call, for `simulate --measured` and the
// report's measured section alike: the hardware (a profile, or the node exports of the runs'
// hosts, whose findings then count as causes), the routing, and every run compared with its
// prediction (measured_compare.h).
#pragma once

#include <string>
#include <vector>

#include "discover/node_set.h"
#include "graph/cluster_inputs.h"
#include "graph/node_join.h"
#include "simulate/measured/measured_findings.h"

namespace slurmtopo {

struct MeasuredComparison {
  std::string profile;                   // the one predicted with; "" when none could be
  std::vector<RunComparison> runs;       // file order
  std::vector<std::string> warnings;     // the node data's; why nothing was predicted
};

// Every run against its prediction on `cluster` routed by `routing`, with the hardware `profile`
// names (a shipped name or a YAML file) or, when it is empty, the hardware of `nodes` (their GPU
// → HCA map tells which HCA is a GPU's nearest, `join`'s findings on a run's hosts count as
// causes). Without either, or when the nodes give no profile (the reason is a warning), each run
// is still read for its evidence and refused a prediction with the reason. Throws InputError
// for a profile that cannot be loaded.
// `domains` (may be null): NVLink domains, NCCL's nodes on a multi-node NVLink profile.
MeasuredComparison compare_measured(const Cluster& cluster, const std::vector<MeasuredRun>& runs,
                                    const std::string& profile, const NodeSet* nodes, const NodeJoin* join,
                                    RoutingKind routing, const NvlinkDomains* domains = nullptr);

// `slurmtopo simulate --measured PATH`.
struct MeasuredRequest {
  ClusterInputs inputs;
  std::string profile;      // a shipped name or a YAML file; or else
  std::string nodes_dir;    // node exports of the runs' hosts
  std::string measured;     // an nccl-tests output (with its NCCL log lines), or a directory of them
  RoutingKind routing = RoutingKind::MinHop;
  std::string nvlink_domains;  // --nvlink-domains: a domains file or a .fabric.csv directory, or none
};

struct MeasuredResult {
  MeasuredComparison comparison;
  std::vector<MeasuredFinding> findings;
};

// InputError: neither or both of profile and nodes_dir; the readers' errors; node exports
// missing for a run's host, or giving no profile.
MeasuredResult run_measured(const MeasuredRequest& request);

}  // namespace slurmtopo
