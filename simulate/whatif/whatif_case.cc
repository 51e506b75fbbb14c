#include "simulate/whatif/whatif_case.h"

#include <fstream>

#include "base/files.h"
#include "base/input_error.h"
#include "emit/topology_plan.h"
#include "slurm/topology_file.h"

namespace slurmtopo {

std::vector<std::string> WhatifCase::names_of(const std::vector<int>& nodes) const {
  std::vector<std::string> out;
  for (int n : nodes) out.push_back(node_names()[n]);
  return out;
}

WhatifCase make_whatif_case(Cluster cluster, const WhatifSlurm& slurm, const WhatifCaseSpec& spec) {
  WhatifCase c;
  c.cluster = std::make_unique<Cluster>(std::move(cluster));
  std::vector<std::string> names, lost;
  for (const SlurmNode& n : slurm.nodes) {
    names.push_back(n.name);
    const int h = c.cluster->host_index(n.name);
    if (h < 0 || c.cluster->hosts[h].hcas.empty()) {
      if (!spec.lost_hosts_are_down) throw InputError("--nodes", 0, "node " + n.name + " is not on the fabric");
      lost.push_back(n.name);
    }
  }
  c.fabric = std::make_unique<FabricModel>(*c.cluster, spec.routing);
  TopologyRequest request;
  request.slurm_nodes = names;
  request.command = "slurmtopo whatif";
  c.emitted = parse_topology_conf(plan_topology(*c.cluster, request).text, "emitted topology.conf");

  SelectSetup setup;
  setup.nodes = slurm.nodes;
  setup.params = slurm.params;
  setup.version = selection_rules(slurm.release);
  SelectSetup flat = setup;
  if (spec.topology_file.empty()) {
    setup.tree = c.emitted;
    c.placed_with = "emitted topology.conf";
  } else {
    SlurmTopologyFile file = parse_topology_file(read_file(spec.topology_file), spec.topology_file);
    setup.tree = std::move(file.tree);
    setup.block = std::move(file.block);
    c.placed_with = spec.topology_file;
  }
  setup.order = node_table_order(slurm.release, setup.block.has_value(), setup.params);
  c.slurm = std::make_unique<SlurmSelect>(std::move(setup));
  c.no_topology = std::make_unique<SlurmSelect>(std::move(flat));
  c.leaves = leaf_tree(c.emitted, c.node_names());
  c.down.assign(c.node_names().size(), 0);
  auto mark = [&](const std::string& name, const char* option) {
    const int i = c.slurm->node_index(name);
    if (i < 0) throw InputError(option, 0, "node " + name + " is not in --nodes");
    c.down[i] = 1;
  };
  for (const auto& n : spec.drained) mark(n, "--drain");
  for (const auto& n : lost) mark(n, "--nodes");
  if (!lost.empty())
    c.notes.push_back(std::to_string(lost.size()) + (lost.size() > 1 ? " nodes" : " node") +
                      (lost.size() > 1 ? " lost every cable and count as down" : " lost every cable and counts as down"));
  return c;
}

}  // namespace slurmtopo
