// What `slurmtopo discover fabric` shows besides the inspect output: progress while the sweep
// runs (on a terminal only), and what a partial sweep missed.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/live_fabric.h"
#include "graph/cluster.h"
#include "graph/cluster_inputs.h"

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

// `slurmtopo discover fabric` once its options are read.
struct FabricSweepRequest {
  LiveOptions live;         // live.routes: read every switch's table by SMP
  ClusterInputs inputs;     // --node-name-map, --config (no --fabric: the sweep is the fabric)
  std::string routes_file;  // dump_fts / ibroute output to take the tables from instead
  std::string name;         // the fabric's label; "" keeps the sweep's (CA and port)
  // `discover counters`: no sweep; this fabric (one subnet: snapshot, cache, dump) has its port
  // counters read live (live.counters is implied).
  std::string fabric_file;
  bool json = false;
};

struct FabricSweep {
  Cluster cluster;
  std::string output;                 // what inspect prints of it, text or JSON
  std::vector<std::string> warnings;  // for stderr
  std::string reset;                  // what --reset-counters reset, for stderr; "" when nothing
  std::string partial;                // partial_sweep_text when the sweep missed something, else ""
};

// Sweeps (or reads the fabric file's counters), takes the tables, builds the cluster and says
// what it sees. A routes file is read
// (and refused when bad) before the sweep, which can take minutes; its tables for switches the
// sweep did not find are left out with a warning. `tick` runs while the sweep runs.
FabricSweep sweep_fabric(const FabricSweepRequest& request, const std::shared_ptr<LiveProgress>& progress,
                         const std::function<void()>& tick);

}  // namespace slurmtopo
