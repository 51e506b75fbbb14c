// A what-if as asked on the command line, made into its request and its cases, and run.
// The cluster is read once. With edits, the "after" cluster is rebuilt from the edited fabrics
// the way the "before" one was built (the same site config and name map; not the port
// counters, which only choose what --drain-errored takes out), the partition's nodes an edit
// cut off count as down, and both cases are costed with the same profile and
// message size. Every value is checked here and an error names the option it came from.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/cluster_inputs.h"
#include "slurm/release.h"
#include "simulate/whatif/whatif_run.h"
#include "simulate/whatif/whatif_shards.h"

namespace slurmtopo {

// The command line's values, as given (strings where the user typed text).
struct WhatifArguments {
  ClusterInputs inputs;
  std::string profile, nodes, weights, busy, sizes, size = "1G", routing = "minhop";
  std::string slurm_conf;  // --slurm-conf: Slurm's nodes and their Weight= (the partition unless --nodes)
  std::string topology_param;
  TargetRelease release;  // cli: target_release(--slurm-version)
  uint64_t seed = 1;
  int samples = 100;
  std::string drain, topology;
  std::string nvlink_domains;  // --nvlink-domains: on a multi-node NVLink profile, NCCL's nodes for the busbw
  std::vector<std::string> drain_switches, remove_cables;
  bool drain_errored = false;  // every cable over a cable-errors threshold in the counters read (inputs)
  int add_spines = 0;
  std::string workload;
  int cpus_per_node = 1;
  int synthetic = 0;
  int max_job_test = 500;
  std::string shard;  // "i/N": run only that slice
};

// The records of a run (every unit, or the shard's slice) with the run's header.
struct WhatifResult {
  nlohmann::ordered_json header;
  std::vector<nlohmann::ordered_json> records;
  std::optional<ShardSpec> shard;
};

// Throws InputError for a bad value (naming its option), conflicting options, or inputs the
// cases refuse (a topology file Slurm would not load, ...). A partition node the fabric lacks is
// said in the header's "warnings" (as emit and place say it) and counts as down.
WhatifResult run_whatif(const WhatifArguments& args, const UnitProgress& progress = {});

}  // namespace slurmtopo
