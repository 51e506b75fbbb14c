#include "cli/node_options.h"

#include <iostream>

#include "base/base.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

void add_node_options(CLI::App& app, NodeInputs& inputs) {
  app.add_option("--nodes-dir", inputs.sources.nodes_dir, "directory of <hostname>.xml (hwloc) / <hostname>.json (slurmtopo discover node)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--node-class", inputs.sources.node_classes, "'HOSTLIST=FILE' for identical hosts (repeatable)");
  app.add_option("--nodes", inputs.nodes, "hostlist of nodes that must all be described (a missing file is an error)");
}

void add_optional_fabric_options(CLI::App& app, ClusterInputs& inputs) {
  app.add_option("--fabric", inputs.fabric_files,
                 "ibnetdiscover text, libibnetdisc cache or snapshot, to join GPUs to rails and leaves (repeatable)")
      ->check(CLI::ExistingFile);
  app.add_option("--node-name-map,--guid-map", inputs.name_map, "GUID to host name map for the fabric")
      ->check(CLI::ExistingFile);
  app.add_option("--config", inputs.site_config, "site.yaml for the fabric")->check(CLI::ExistingFile);
}

NodeSet load_nodes(NodeInputs inputs) {
  if (inputs.sources.nodes_dir.empty() && inputs.sources.node_classes.empty())
    throw InputError("command line", 0, "expected --nodes-dir DIR and/or --node-class 'HOSTLIST=FILE'");
  if (!inputs.nodes.empty()) {
    inputs.sources.expected_hosts = expand_hostlist_at(inputs.nodes, "--nodes");
  }
  return load_node_set(inputs.sources);
}

void print_node_warnings(const NodeSet& set) {
  for (const auto& w : set.warnings) std::cerr << "warning: " << w << "\n";
}

}  // namespace slurmtopo::cli
