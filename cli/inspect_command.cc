#include <iostream>
#include <memory>
#include <optional>

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
    const Cluster cluster = load_cluster(opt->inputs);
    std::optional<NodeSet> set;
    if (!opt->nodes.sources.nodes_dir.empty() || !opt->nodes.sources.node_classes.empty())
      set = load_node_set(opt->nodes.sources, opt->nodes.nodes);
    std::cout << inspect_report(cluster, set ? &*set : nullptr, opt->json);
    if (!opt->save.empty()) atomic_write(opt->save, snapshot_to_json(Snapshot{cluster.fabrics}));
  });
}

}  // namespace slurmtopo::cli
