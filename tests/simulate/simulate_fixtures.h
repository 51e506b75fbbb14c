// Fabrics and profiles the simulator tests share, so each derives its expected numbers from
// the same cables: a 2-level HDR fat tree with 2:1 leaves (radix 12: 8 hosts down, 4 uplinks to
// 4 spines), and the A100 profile with one HDR NIC per node, as those hosts have.
#pragma once

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/collective/hardware_profile.h"

namespace slurmtopo::testing {

inline Cluster oversubscribed_hdr_tree(int hosts) {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 12;
  spec.oversubscription = 2.0;
  spec.hosts = hosts;
  spec.speed = LinkSpeed::HDR;
  return build_cluster({generate_fattree(spec)}, ClusterOptions{});
}

inline HardwareProfile one_rail() {
  HardwareProfile h = load_profile("a100-hdr");
  h.nics_per_node = 1;
  return h;
}

}  // namespace slurmtopo::testing
