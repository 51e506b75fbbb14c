// --nodes-dir / --node-class / --nodes, shared by the commands that read node inventories
// (`emit gres`, `emit nodes`, `inspect`), and the optional fabric those join with.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "discover/discover.h"
#include "graph/graph.h"

namespace slurmtopo::cli {

struct NodeInputs {
  NodeSources sources;
  std::string nodes;     // --nodes HOSTLIST: hosts that must all be described
};

void add_node_options(CLI::App& app, NodeInputs& inputs);

// --fabric / --node-name-map / --config, all optional (add_cluster_options requires --fabric).
void add_optional_fabric_options(CLI::App& app, ClusterInputs& inputs);

// InputError when neither --nodes-dir nor --node-class was given, or --nodes is no hostlist.
NodeSet load_nodes(NodeInputs inputs);

// "warning: ..." lines for the set's own warnings, on stderr.
void print_node_warnings(const NodeSet& set);

}  // namespace slurmtopo::cli
