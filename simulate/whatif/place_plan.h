// `slurmtopo place` as one call: Slurm's nodes with their weights and CPUs, the topology it
// places with (a topology file as slurmctld reads it, or the topology.conf slurmtopo would
// emit for a fabric), the job and the busy nodes → the nodes Slurm would give the job, and why.
// It lives beside what-if because a fabric is placed through emit/'s topology.
#pragma once

#include <string>

#include "graph/cluster_inputs.h"
#include "simulate/scheduler/slurm_select.h"

namespace slurmtopo {

// Values as the user gave them; each is checked and an error names its option.
struct PlaceRequest {
  std::string topology;         // --topology FILE (tree or block); or
  ClusterInputs inputs;         // --fabric: the topology.conf slurmtopo would emit
  std::string nodes;            // the partition (hostlist)
  std::string weights, cpus = "1", busy;
  int count = 1;                // -N
  bool exclusive = false;
  std::string switches;         // --switches N[@TIME]
  std::string topology_param;   // TopoOptional, Dragonfly
  std::string version = "22.05";
  int max_switch_wait = 300;
};

SelectResult run_place(const PlaceRequest& request);

}  // namespace slurmtopo
