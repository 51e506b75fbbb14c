// A small 2:1 oversubscribed fat tree for what-if tests: 4 leaves of 8 one-HCA hosts
// (gpu001-gpu032), 4 uplinks per leaf to 4 spines, HDR. A job inside one leaf crosses no
// uplink; one over two leaves shares them, so placements differ in predicted busbw.
#pragma once

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/whatif/whatif_case.h"
#include "tests/simulate/simulate_fixtures.h"

namespace slurmtopo::testing {

inline Cluster oversubscribed_tree() { return oversubscribed_hdr_tree(32); }

inline WhatifSlurm partition_of(const Cluster& c) {
  WhatifSlurm s;
  for (const Host& h : c.hosts) s.nodes.push_back({h.name, 1, 1});
  return s;
}


inline std::vector<char> busy_nodes(const WhatifCase& c, const std::vector<std::string>& names) {
  std::vector<char> busy(c.node_names().size(), 0);
  for (const auto& n : names) busy[c.slurm->node_index(n)] = 1;
  return busy;
}

}  // namespace slurmtopo::testing
