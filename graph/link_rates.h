// Every cable judged against what its two ends can do (graph/link_ceilings.h), and the
// inventory of link rates that says why each rate is what it is.
//
// Findings:
//   degraded-link    a cable below the best both its ends support (or below the site's
//                    expectation, capped by that best); where what the ends support is not
//                    known, a cable below the usual rate of its peers (the cables between the
//                    same two device ids), and never against the fabric's fastest
//   slow-link-group  one kind of cable (the same device-id pair at the same switch levels, HCAs
//                    as level 0) with at least kSlowGroupMin cables, none of them at the best
//                    both ends support and the most common of them all at one lower rate: one
//                    Warn for the group, not one Fail per cable; the kind's other slow cables
//                    stay degraded-link
// Cluster::link_rates counts the cables per rate and reason (a DDR HCA's cable at DDR is mixed
// generations, never a fault); Cluster::unknown_devices lists the ids the table does not know,
// once, not per cable.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/site_config.h"

namespace slurmtopo {

struct Cluster;

// Four cables alike below what their ends can do are a choice (cables bought that way, a speed
// set on the switches) or a batch fault, and the admin fixes them as one; up to three slow
// cables of a kind fail one by one, as single cables do.
inline constexpr int kSlowGroupMin = 4;

// A cable to judge: loopbacks and the internal port of a SHARP aggregation node are not.
struct CableToJudge {
  int fabric = 0;
  const Link* link = nullptr;
  const FabricNode* a = nullptr;  // the nodes at link->a and link->b
  const FabricNode* b = nullptr;
  int level_a = 0, level_b = 0;   // switch level of each end; 0 for a CA
  size_t vertex_a = 0, vertex_b = 0;  // the ends' vertices in Cluster::graph, for cable_name
};

// "leaf01[3] - gpu001 mlx5_0", as findings name cables: asked for only by the cables a finding
// names, since building it for each of a large fabric's cables cost more than judging them.
using CableName = std::function<std::string(const CableToJudge&)>;

// Appends degraded-link and slow-link-group anomalies; fills link_rates and unknown_devices.
void record_link_rates(Cluster& cluster, const SiteConfig& site, const std::vector<CableToJudge>& cables,
                       const CableName& cable_name);

}  // namespace slurmtopo
