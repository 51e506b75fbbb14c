// `slurmtopo inspect`: what slurmtopo sees in the fabric — counts per level, groups, rails,
// anomalies — for a person (text) or an automation (JSON).
#pragma once

#include <string>

#include "graph/cluster.h"

namespace slurmtopo {

std::string inspect_text(const Cluster& cluster);
std::string inspect_json(const Cluster& cluster);  // deterministic bytes

}  // namespace slurmtopo
