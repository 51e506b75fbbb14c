// The cables of a cluster named as a cabling plan names them (discover/cable_plan.h).
#pragma once

#include "discover/cable_plan.h"
#include "graph/cluster.h"

namespace slurmtopo {

// Every cable of the cluster's fabrics, named as a plan names them, with the rate it runs at
// (width and speed of the cable): what a plan is compared with, and what a fabric accepted
// earlier (a snapshot, an ibnetdiscover dump) is as a plan. In the fabrics' cable order.
CablePlan cluster_cables(const Cluster& cluster);

// The fabrics' cables as one cable list (discover/cable_list.h) that --plan reads back: what
// `generate --format plan` writes, the plan of the fabric it generated. Named as a fabric
// with no site config or name map names them.
std::string cable_list_of(std::vector<Fabric> fabrics, const std::string& comment);

}  // namespace slurmtopo
