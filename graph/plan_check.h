// The fabric's cables against a cabling plan (discover/cable_plan.h), each end matched by name:
// switch and port, host and HCA. Every planned cable is present, or one finding says what a
// technician does about it:
// - plan-swapped-cables: two cables in each other's ports of one device ("swap the cables in
//   leaf03 ports 17 and 18"), one finding for the pair;
// - plan-wrong-port: the right device, another port ("move the cable in leaf03 port 17 to
//   port 18");
// - plan-wrong-device: the cable reaches another device;
// - plan-missing-cable: neither end holds it (both devices are in the fabric);
// - plan-slow-cable: present, below the plan's width or speed;
// - plan-missing-device: a planned device absent from the fabric, its cables with it;
// - plan-unknown-device: a device the plan does not know, its cables with it;
// - plan-extra-cable: any other cable the plan does not have.
// Each planned cable and each fabric cable is in at most one finding. An HCA no host name
// claims, in the switch port where the plan has a host's HCA the fabric lacks, is one
// plan-unknown-device finding saying so (not also a missing cable).
//
// A fault the plan names is said once: the findings of other checks about the same cables
// are taken out (PlanSummary::merged counts them): miscabled-rail, crossed-rails and
// missing-rail of a host whose cable a plan finding names; missing-uplinks of a leaf whose
// cable to another switch one names; degraded-link of a cable plan-slow-cable names.
#pragma once

#include "discover/cable_plan.h"
#include "graph/cluster.h"

namespace slurmtopo {

// Appends the findings to cluster.anomalies and the comparison's counts to
// cluster.plan_checks. Throws InputError (the plan's file and line) for a port the plan uses
// twice.
void record_plan_findings(Cluster& cluster, const CablePlan& plan);

}  // namespace slurmtopo
