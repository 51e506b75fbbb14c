// Which flows an edit moved: the same placement routed on the fabric before and after, flow by
// flow. Static routing (min-hop's D-mod-K, ftree) assigns each destination one path; removing
// a cable or a switch recomputes every table, so flows that never touched the edit can move
// onto other cables — and a busbw can rise after capacity is removed. This is what shows it.
#pragma once

#include <string>
#include <vector>

#include "simulate/whatif/whatif_case.h"

namespace slurmtopo {

struct RouteChanges {
  int flows = 0;     // flows compared (both ends cabled before and after)
  int moved = 0;     // whose cables differ after the edit
};

// The flows NCCL's algorithms send between `hosts` (rank order), on every rail: host i's HCA to
// host i+d's for d = 1, 2, 4, … < n (ring neighbours at 1, tree and halving-doubling partners
// at the powers of two), wrapping around: n·log2(n) flows per rail, so a 512-node job is
// compared on 4,608. A cable is the same before and after when both its ends (node GUID,
// port) are. Hosts or rails missing on either side are skipped.
RouteChanges job_route_changes(const WhatifCase& before, const WhatifCase& after, const std::vector<std::string>& hosts);

}  // namespace slurmtopo
