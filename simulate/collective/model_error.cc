#include "simulate/collective/model_error.h"

namespace slurmtopo {

namespace {
constexpr double kMiB = 1048576.0;
constexpr double kGiB = 1073741824.0;
}  // namespace

StatedError stated_error(double bytes, int nodes, int sm) {
  if (nodes <= 1) {
    if (bytes < kMiB) return {std::nullopt, "one node below 1 MiB: not claimed"};
    if (sm == 80 && bytes >= 16 * kMiB && bytes < 64 * kMiB)
      return {std::nullopt, "A100 at 16-64 MiB: not claimed (LL128 slower than NCCL's constants)"};
    if (bytes >= 8 * kGiB) return {0.10, "one node from 8 GiB"};
    return {0.15, "one node from 1 MiB"};
  }
  if (bytes < 16 * kMiB) return {std::nullopt, "several nodes below 16 MiB: not claimed"};
  // Two nodes: no published two-node sweep is in the calibration, and public two-node runs of
  // 8 H100/H200 over NDR sit about a tenth under the prediction at 1-8 GiB (issue 31): the band
  // is widened by that much rather than let a healthy pair of nodes fail.
  if (nodes == 2) return {bytes >= 128 * kMiB ? 0.20 : 0.25, "two nodes (no published point in the calibration)"};
  if (bytes < 128 * kMiB) return {0.25, "several nodes at 16-128 MiB"};
  return {0.10, "several nodes from 128 MiB"};
}

}  // namespace slurmtopo
