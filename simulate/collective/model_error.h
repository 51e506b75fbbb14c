// How far a measurement may sit from the prediction before it says something about the cluster
// rather than the model: the error docs/simulator.md claims, per size and node count, from the
// calibration (tests/simulate/collective/calibration_test.cc asserts the same bands on every
// published point). Where nothing is claimed (small messages, a size no published sweep
// covers) a measurement is shown against the prediction and judged not at all.
#pragma once

#include <optional>
#include <string>

namespace slurmtopo {

struct StatedError {
  std::optional<double> tolerance;  // |measured / predicted − 1| the model claims; nullopt: none
  std::string why;                  // "multi-node from 128 MiB", "below 1 MiB: not claimed"
};

// `sm`: the GPUs' compute capability ×10 (A100 at 16–64 MiB is not claimed: NCCL's LL128 there
// runs slower than its own constants say, docs/simulator.md).
StatedError stated_error(double bytes, int nodes, int sm);

}  // namespace slurmtopo
