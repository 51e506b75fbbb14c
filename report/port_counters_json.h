// The port counters (--counters, graph/link_health.h) as every JSON document slurmtopo writes
// gives them — `inspect --json` and `report --json` (docs/report-json.md) alike, from one
// function so the two cannot drift apart:
//   "port_counters": per input, in input order: source, form, read_at, interval_s, ports,
//                    matched, no_cable, unknown, ambiguous, summed, failed_queries
//   "cable_health":  per cable end that counted something (Cluster::cable_health's order): cable
//                    (this end first), fabric, source, line, over_threshold (any counter above
//                    its threshold), and every counter read there {value,
//                    at_least (stuck at its maximum), over_threshold, per_second (where read twice)}
// Both are empty arrays without counters. Same input, same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

// Sets j["port_counters"] and j["cable_health"], in that order. `fabric_names` by fabric index
// (CableEndHealth::fabric); each row's source indexes `sources`.
void add_port_counters_json(nlohmann::ordered_json& j, const std::vector<CounterSource>& sources,
                            const std::vector<CableEndHealth>& cable_health,
                            const std::vector<std::string>& fabric_names);

}  // namespace slurmtopo
