// What `slurmtopo discover fabric` shows besides the inspect output: progress while the sweep
// runs (on a terminal only), and what a partial sweep missed.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "discover/fabric.h"
#include "discover/live_fabric.h"

namespace slurmtopo {

// "\rdiscover: 12 switches, 480 CAs; 1.3 s" on stderr, rewritten in place. The destructor draws
// it once more and ends the line: ticks come every ~200 ms, so the last one usually shows the
// counts of a moment before the sweep ended, and an admin reads the last line as the total.
class SweepProgressLine {
 public:
  explicit SweepProgressLine(std::shared_ptr<LiveProgress> progress);
  SweepProgressLine(const SweepProgressLine&) = delete;
  SweepProgressLine& operator=(const SweepProgressLine&) = delete;
  ~SweepProgressLine();
  void show();

 private:
  using Clock = std::chrono::steady_clock;
  std::shared_ptr<LiveProgress> progress_;
  Clock::time_point start_;
};

// The problems of a partial sweep and what to do, for stderr.
std::string partial_sweep_text(const Fabric& fabric);

}  // namespace slurmtopo
