// What `inspect --measured` shows: each nccl-tests run as read, with what NCCL's log says its
// hosts did and that evidence weighed (measured_causes.h): sockets, GPUDirect, HCAs against the
// nodes' nearest, node findings and crossed rails on its hosts. Nothing is predicted, so no run
// is judged below or above; the log's own findings (and #wrong) stand.
#pragma once

#include <string>
#include <vector>

#include "discover/node_set.h"
#include "graph/cluster.h"
#include "simulate/measured/measured_findings.h"

namespace slurmtopo {

struct MeasuredEvidence {
  std::vector<MeasuredRun> runs;          // file order
  std::vector<RunComparison> weighed;     // parallel: placement, #wrong, causes; no size judged
  std::vector<MeasuredFinding> findings;
  std::vector<std::string> warnings;      // the node data's
};

// `nodes` (may be null) tells each GPU's nearest HCA; their findings on a run's hosts count.
MeasuredEvidence weigh_measured(const Cluster& cluster, std::vector<MeasuredRun> runs, const NodeSet* nodes);

}  // namespace slurmtopo
