// What a benchmark reports of its memory: the process's peak resident set.
#pragma once

#include <sys/resource.h>

namespace slurmtopo {

inline constexpr double kMiB = 1024.0 * 1024.0;

// The peak resident set so far, in MiB (ru_maxrss is in KiB on Linux).
inline double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace slurmtopo
