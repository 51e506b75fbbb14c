// Predicted allreduce busbw for many placements at one message size, for what-if sweeps and
// replays: each distinct placement is predicted once (a replay places the same nodes again
// and again), and a batch is spread over threads. Results do not depend on the thread count
// or on the order of the batch.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "simulate/collective/prediction.h"

namespace slurmtopo {

class PlacementCosts {
 public:
  // `fabric` (and `domains`, when given: NVLink domains for a multi-node NVLink profile) must
  // outlive this. Throws InputError for a profile the fabric cannot run.
  PlacementCosts(const FabricModel& fabric, HardwareProfile profile, double bytes, const HostDomains* domains = nullptr);

  // busbw (GB/s) of each placement (host names in rank order), `threads` at a time; NaN for
  // one the fabric cannot carry (hosts that cannot reach each other after an edit).
  std::vector<double> busbw(const std::vector<std::vector<std::string>>& placements, unsigned threads = 2);
  double busbw(const std::vector<std::string>& placement) {
    return busbw(std::vector<std::vector<std::string>>{placement}, 1).front();
  }
  // The same with what limits each: the worst bottleneck's name ("leaf01[33]->spine02[1]"),
  // "" when none holds it or the placement cannot be carried.
  struct Cost {
    double busbw = 0;
    std::string bottleneck;
  };
  std::vector<Cost> costs(const std::vector<std::vector<std::string>>& placements, unsigned threads = 2);

  size_t predicted() const { return cache_.size(); }  // distinct placements costed so far
  double bytes() const { return options_.sizes.front(); }
  const HardwareProfile& profile() const { return profile_; }

 private:
  const FabricModel& fabric_;
  HardwareProfile profile_;
  SimulateOptions options_;
  std::unordered_map<std::string, Cost> cache_;
};

}  // namespace slurmtopo
