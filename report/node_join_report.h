// What `slurmtopo inspect --nodes-dir` adds: per node class, every GPU's way out of the node
// (GPU → NIC → rail → leaf) with the hosts taking each way, then what is wrong with it.
#pragma once

#include <string>

#include "discover/node_set.h"
#include "graph/node_join.h"

namespace slurmtopo {

// One table per class: a row per distinct (GPU, NIC, path class, rail, leaf) with the hosts
// that have it, so 1,000 identical hosts are 8 rows and a miscabled one stands out.
std::string node_join_text(const NodeSet& nodes, const NodeJoin& join);

// `inspect_json` (report/inspect.h) with a "nodes" member added: classes, per host per GPU
// its NIC, path class, rail and leaves, and the node anomalies. Deterministic bytes.
std::string inspect_json_with_nodes(const std::string& inspect_json, const NodeSet& nodes, const NodeJoin& join);

// All of `slurmtopo inspect`: the cluster (inspect_text / inspect_json) and, when `nodes` is
// given, its join to the cluster (node_join_text / the "nodes" member).
std::string inspect_report(const Cluster& cluster, const NodeSet* nodes, bool json);

}  // namespace slurmtopo
