// What `slurmtopo inspect --measured` prints: per run its placement, then per host what NCCL's
// log says it did (version, driver, network, HCAs bound, channels with and without GDRDMA, over
// sockets, NCCL_IB_HCA), the size table as measured, the run's evidence weighed, and the
// findings the log gives. Nothing is predicted here: `simulate --measured` compares. JSON
// carries the same.
#pragma once

#include <string>

#include "simulate/measured/measured_evidence.h"

namespace slurmtopo {

std::string measured_evidence_report(const MeasuredEvidence& evidence, bool json);

}  // namespace slurmtopo
