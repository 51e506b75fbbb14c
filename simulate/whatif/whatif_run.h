// A what-if run as independent units of work, each giving one JSON record, so that a run can
// be cut into shards (simulate/whatif/whatif_shards.h) and merged into exactly what one run prints:
//   policies  one unit per job size: the four policies on the given busy nodes
//   edits     one unit per sampled busy state: each job size placed by Slurm before and after
//   replay    one unit per variant: Slurm, Slurm without topology, Slurm after the edits
// A unit's randomness comes from (seed, unit), never from what ran before it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "simulate/collective/placement_costs.h"
#include "simulate/scheduler/workload.h"
#include "simulate/whatif/whatif_case.h"
#include "simulate/whatif/whatif_edits.h"

namespace slurmtopo {

enum class WhatifMode { Policies, Edits, Replay };
const char* to_string(WhatifMode mode);

struct WhatifRequest {
  std::vector<int> sizes;           // -N: nodes per job
  std::vector<std::string> busy;    // --busy: policies; busy in every sample of edits
  uint64_t seed = 1;
  int samples = 100;                // busy states sampled for edits
  double max_busy_share = 0.6;      // a sample has up to this share of the nodes busy
  std::optional<Workload> workload;
  WhatifEdits edits;
  int max_job_test = 500;
  std::string slurm_release;        // release_line(): the release whose node selection runs
};

struct WhatifInputs {
  const WhatifCase* before = nullptr;
  const WhatifCase* after = nullptr;  // with edits
  PlacementCosts* before_costs = nullptr;
  PlacementCosts* after_costs = nullptr;
  unsigned threads = 2;
};

WhatifMode whatif_mode(const WhatifRequest& request);
int whatif_units(const WhatifRequest& request);

// What identifies the run: a shard from another run refuses to merge.
nlohmann::ordered_json whatif_run_header(const WhatifRequest& request, const WhatifInputs& in,
                                         const std::vector<std::string>& sources);

// Records for `units` (ascending), each with its "unit" index. Progress in units done.
using UnitProgress = std::function<void(double done, int total)>;
std::vector<nlohmann::ordered_json> run_whatif_units(const WhatifRequest& request, const WhatifInputs& in,
                                                     const std::vector<int>& units, const UnitProgress& progress = {});

}  // namespace slurmtopo
