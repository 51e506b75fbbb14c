#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "discover/snapshot.h"
#include "emit/atomic_write.h"
#include "report/inspect.h"

namespace slurmtopo::cli {

void add_inspect_command(CLI::App& app) {
  struct Options {
    ClusterInputs inputs;
    bool json = false;
    std::string save;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("inspect", "What slurmtopo sees: levels, groups, rails, anomalies");
  add_cluster_options(*cmd, opt->inputs);
  cmd->add_flag("--json", opt->json, "machine-readable output");
  cmd->add_option("--save", opt->save, "also write a snapshot (JSON) that --fabric reads back");
  cmd->callback([opt] {
    Cluster cluster = load_cluster(opt->inputs);
    std::cout << (opt->json ? inspect_json(cluster) : inspect_text(cluster));
    if (!opt->save.empty()) atomic_write(opt->save, snapshot_to_json(Snapshot{cluster.fabrics}));
  });
}

}  // namespace slurmtopo::cli
