// The jobs running next door, as `simulate --busy-jobs FILE` reads them: one job a line,
//
//   # hostlist           collective  size
//   dgx[001-016]         allreduce   256M
//   dgx[033-040,045]     allgather   1G
//
// the hostlist in rank order, the collective it runs (allreduce, reducescatter, allgather,
// broadcast) and the message size (nccl-tests' size, K/M/G = 2^10/2^20/2^30). Each runs what
// NCCL would choose at that size, all the time; blank lines and `#` comments are skipped.
#pragma once

#include <string>
#include <vector>

#include "simulate/collective/nccl_model.h"

namespace slurmtopo {

struct BusyJob {
  std::vector<std::string> hosts;
  Collective collective = Collective::AllReduce;
  double bytes = 0;
  int line = 0;  // in the file it came from
};

// Throws InputError naming `source` and the line: a bad hostlist, collective or size, or a
// line without all three.
std::vector<BusyJob> parse_busy_jobs(const std::string& text, const std::string& source);
std::vector<BusyJob> read_busy_jobs(const std::string& path);

}  // namespace slurmtopo
