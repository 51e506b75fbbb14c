// The fabric a cabling plan describes, as a sweep of it would find it: what `generate
// from-plan` writes, so that a plan can be rehearsed on ibsim (or checked offline) before the
// cluster is cabled. Switches and HCAs are named as the plan names them (a host's HCA by its
// node description "host mlx5_0"; "host HCA-1" for ibdiagnet's U1; "host" alone where the plan
// gives no HCA name); GUIDs and LIDs are made up, in the plan's order of first mention.
#pragma once

#include "discover/cable_plan.h"
#include "discover/fabric.h"

namespace slurmtopo {

// Cables take the plan's width and speed, or 4x and `speed` where it says none. A switch has
// the ports its most common generation has (36 EDR, 40 HDR, 64 NDR), or its highest planned
// port when that is more. InputError naming the plan for a device that is a switch in one
// cable and a host in another.
Fabric fabric_from_plan(const CablePlan& plan, LinkSpeed speed);

}  // namespace slurmtopo
