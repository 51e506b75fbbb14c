// What looks wrong in the fabric: missing and degraded cables, loopbacks, leaf-to-leaf links,
// unnamed HCAs, hosts with missing or miscabled rails.
#pragma once

#include <vector>

#include "discover/site_config.h"
#include "graph/grouping.h"

namespace slurmtopo {

struct Cluster;

void record_grouping_anomalies(Cluster& cluster, const GroupingResult& grouping);
// Cables are judged against their ends' rates only when judge_cable_rates (ClusterOptions).
void record_fabric_anomalies(Cluster& cluster, const SiteConfig& site,
                             const std::vector<int>& switch_of, bool judge_cable_rates);

}  // namespace slurmtopo
