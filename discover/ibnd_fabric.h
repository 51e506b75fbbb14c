// libibnetdisc's fabric (ibnd_fabric_t) → slurmtopo's Fabric. One converter for both ways
// libibnetdisc hands us a fabric: a live sweep (ibnd_discover_fabric) and a cache file
// (ibnd_load_fabric), so the two give the same model for the same sweep.
#pragma once

#include <infiniband/ibnetdisc.h>

#include "discover/fabric.h"

namespace slurmtopo {

// Nodes, cables (both port numbers, LIDs, active width and speed), descriptions and
// system-image GUIDs; `partial` lists what the sweep left unanswered (see below). Sorted and
// normalized; source and name are left for the caller.
Fabric fabric_from_ibnd(const ibnd_fabric_t& ibnd);

// What a sweep did not get an answer for, one line each, at most `limit` lines plus one
// that counts the rest: a switch port whose PortInfo never came back, a port that is up
// (LinkUp) with no node found behind it (it did not answer NodeInfo, or --max-hops stopped
// the walk), and ports the subnet manager has not given a LID yet. Empty for a full sweep.
std::vector<std::string> unanswered_ports(const ibnd_fabric_t& ibnd, size_t limit = 20);

}  // namespace slurmtopo
