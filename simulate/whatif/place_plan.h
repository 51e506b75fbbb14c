// `slurmtopo place` as one call: Slurm's nodes with their weights and CPUs, the topology it
// places with (a topology file as slurmctld reads it, or the topology.conf slurmtopo would
// emit for a fabric), the job and the busy nodes → the nodes Slurm would give the job, and why.
// It lives beside what-if because a fabric is placed through emit/'s topology.
#pragma once

#include <string>
#include <vector>

#include <optional>

#include "graph/cluster_inputs.h"
#include "simulate/collective/prediction.h"
#include "simulate/scheduler/slurm_select.h"

namespace slurmtopo {

// Values as the user gave them; each is checked and an error names its option.
struct PlaceRequest {
  std::string topology;         // --topology FILE (tree or block); or
  ClusterInputs inputs;         // --fabric: the topology.conf slurmtopo would emit (with --topology: only
                                // the routes of --profile's prediction)
  std::string nodes;            // the partition (hostlist); with slurm_conf, a subset of its nodes
  std::string slurm_conf;       // --slurm-conf: Slurm's nodes with their Weight= and CPUs=
  std::string weights, cpus, busy;  // --weights, --cpus override slurm.conf's; else 1
  std::string busy_topo;        // --busy-topo: busy nodes of jobs that keep their base blocks whole
  int count = 1;                // -N
  std::string exclusive;        // --exclusive[=topo]: "" shared, "node" whole nodes, "topo" whole base blocks
  std::string switches;         // --switches N[@TIME]
  int segment = 0;              // --segment N (24.05+; topology/block reads it), 0: none
  bool consolidate_segments = false, spread_segments = false;  // 25.11+
  std::string topology_param;   // TopoOptional, Dragonfly
  TargetRelease release;        // cli: target_release(--slurm-version)
  int max_switch_wait = 300;
  // --profile: the allocation's allreduce busbw at `size` predicted on the fabric (simulate's
  // model), with NVLink domains on a multi-node NVLink profile.
  std::string profile, size = "1G", nvlink_domains;
};

// What the allocation's collective is predicted to reach (--profile).
struct PlacePrediction {
  std::string profile;
  SizePrediction size;
  int nvlink_domains = 0;             // NCCL's nodes on an NVL72 profile; 0 otherwise
  std::vector<std::string> warnings;  // the prediction's
};

// What place answers. A job that cannot start now either waits (pending: Resources, or for
// --switches) or never runs: with every node of the partition free it still could not start,
// and slurmctld refuses such a job when it is submitted ("Requested node configuration is not
// available"); `never` says which, with the reason in the topology's own terms.
struct PlaceResult {
  SelectResult select;
  bool never = false;
  std::string never_reason;
  std::string refusal;  // what salloc/sbatch then print: the release's words (measured 22.05, 24.11, 26.05)
  std::vector<std::string> warnings;  // the --topology file's checks, as slurmctld logs them
  std::optional<PlacePrediction> predicted;  // --profile, for a job that starts
};

// Throws InputError too for --profile without --fabric, and --fabric with --topology without
// --profile (which of the two to place with would be unclear).
PlaceResult run_place(const PlaceRequest& request);

}  // namespace slurmtopo
