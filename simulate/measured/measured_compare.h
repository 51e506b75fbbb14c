// A measured run against the prediction for the same collective on the same hosts, GPUs per host
// and sizes (simulate/collective/prediction.h), judged by the error the model claims at each
// size (simulate/collective/model_error.h), with every piece of evidence of a cause
// (measured_causes.h), which names the likely one where the run falls short, in this order:
//   1. a transport that is not RDMA: hosts whose NCCL fell back to sockets;
//   2. GPUDirect RDMA off: NET/IB channels without GDRDMA, `GPU Direct RDMA Disabled` lines;
//   3. HCAs that are not the GPU's nearest (node exports given), or a rank's channels leaving
//      through a rail other than its peers';
//   4. a node finding on the run's hosts (graph/node_health.h, node_join.h);
//   5. a cable on the run's routes with port-counter errors above threshold, or degraded;
//   6. a crossed or miscabled rail on the run's hosts.
// Causes 1–3 come from NCCL's own log of the run; without a log they cannot be named, and the
// comparison says so. A run above the prediction by more than the claimed error is the model's
// fault, and is reported as such.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "simulate/collective/prediction.h"
#include "simulate/measured/measured_causes.h"

namespace slurmtopo {

enum class Standing { Within, Below, Above, NotClaimed };
const char* to_string(Standing s);

struct SizeCheck {
  double bytes = 0;
  double measured_gbs = 0;      // busbw, the better of out-of-place and in-place
  double predicted_gbs = 0;
  std::string algorithm;        // the prediction's "nvlstree/Simple"
  // predicted / measured − 1: the prediction's error against this measurement, as
  // docs/simulator.md states the calibration's (+0.4: predicted 40 % over what ran).
  double prediction_error = 0;
  // The model's claim there: the prediction within ±tolerance of the measurement (so a run
  // is below when predicted > measured × (1 + tolerance)); nullopt: nothing claimed.
  std::optional<double> tolerance;
  Standing standing = Standing::NotClaimed;
  int line = 0;                 // the row in the output
};

struct RunComparison {
  std::string source;           // file:line of the run's header
  std::string collective;       // nccl-tests' name; "NCCL job" for a job's log
  bool job_log = false;         // MeasuredRun::job_log: evidence only
  std::vector<std::string> hosts;
  std::string hostlist;
  int ranks = 0, gpus_per_host = 0;
  bool logged = false;          // NCCL's log of the run was read
  std::string not_predicted;    // why no prediction was made; "" when one was
  std::string profile;
  std::vector<SizeCheck> sizes;
  bool complete = true;         // the output reached its `# Avg bus bandwidth` line
  int rows = 0;                 // size rows read
  long wrong = 0;               // Σ #wrong over the rows
  int wrong_line = 0;
  std::vector<Cause> causes;    // every piece of evidence, most likely first
  bool below() const;
  bool above() const;
  // The largest size judged below (or above) the prediction, the bandwidth-bound figure an
  // admin quotes; nullptr when none.
  const SizeCheck* largest_below() const;
  const SizeCheck* largest_above() const;
};

// Never throws for what the run holds: a run that cannot be predicted (other GPUs than the
// profile's, a collective the model lacks, hosts the fabric lacks) says why in not_predicted,
// and its evidence is still read.
RunComparison compare_run(const MeasuredRun& run, const MeasuredContext& context);

}  // namespace slurmtopo
