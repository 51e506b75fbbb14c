#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "discover/discover.h"
#include "report/report.h"

namespace slurmtopo::cli {

void add_inspect_command(CLI::App& app) {
  struct Options {
    ClusterInputs inputs;
    bool json = false;
    std::string save;
    NodeInputs nodes;  // optional: join GPUs → NICs → rails → leaves
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("inspect", "What slurmtopo sees: levels, groups, rails, anomalies");
  add_fabric_options(*cmd, opt->inputs, FabricOption::Required);
  cmd->add_flag("--json", opt->json, "machine-readable output");
  cmd->add_option("--save", opt->save, "also write a snapshot (JSON) that --fabric reads back");
  add_node_options(*cmd, opt->nodes);
  cmd->callback([opt] {
    Cluster cluster = load_cluster(opt->inputs);
    bool nodes = !opt->nodes.sources.nodes_dir.empty() || !opt->nodes.sources.node_classes.empty();
    if (!nodes) {
      std::cout << (opt->json ? inspect_json(cluster) : inspect_text(cluster));
    } else {
      const NodeSet set = load_node_set(opt->nodes.sources, opt->nodes.nodes);
      const NodeJoin join = join_nodes(set, &cluster);
      if (opt->json) std::cout << inspect_json_with_nodes(inspect_json(cluster), set, join);
      else std::cout << inspect_text(cluster) << node_join_text(set, join);
    }
    if (!opt->save.empty()) atomic_write(opt->save, snapshot_to_json(Snapshot{cluster.fabrics}));
  });
}

}  // namespace slurmtopo::cli
