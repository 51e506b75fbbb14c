#include <iostream>
#include <memory>
#include <optional>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "discover/discover.h"
#include "report/report.h"
#include "simulate/measured/measured.h"

namespace slurmtopo::cli {

namespace {

// The suggested map's header says what it was guessed from.
std::string command_line(const ClusterInputs& in) {
  std::string s = "slurmtopo inspect";
  for (const auto& f : in.fabric_files) s += " --fabric " + f;
  if (!in.name_map.empty()) s += " --node-name-map " + in.name_map;
  if (!in.site_config.empty()) s += " --config " + in.site_config;
  return s;
}

}  // namespace

void add_inspect_command(CLI::App& app) {
  struct Options {
    ClusterInputs inputs;
    bool json = false;
    std::string save;
    std::string suggest_map;
    NodeInputs nodes;  // optional: join GPUs → NICs → rails → leaves
    std::string measured;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("inspect", "What slurmtopo sees: levels, groups, rails, anomalies");
  cmd->footer(plain_exit_status() + "\n" +
              examples_text({{"ibnetdiscover > fabric.topo; slurmtopo inspect --fabric fabric.topo",
                              "levels, host groups, rails and anomalies"},
                             {"slurmtopo inspect --fabric fabric.topo --nodes-dir nodes/ --json",
                              "with every host's GPU -> NIC -> rail -> leaf, for automation"},
                             {"slurmtopo inspect --fabric fabric.topo --measured all_reduce_perf.out",
                              "an nccl-tests run as read: each host's NCCL, network, HCAs and GPUDirect, its sizes"}}));
  add_fabric_options(*cmd, opt->inputs, FabricOption::Required);
  add_counters_option(*cmd, opt->inputs);
  add_plan_option(*cmd, opt->inputs);
  add_json_flag(*cmd, opt->json);
  add_save_option(*cmd, opt->save);
  cmd->add_option("--suggest-map", opt->suggest_map,
                  "also write the likely hosts of unnamed HCAs (from their ports) as a node-name-map to review and "
                  "pass back with --node-name-map");
  add_node_options(*cmd, opt->nodes);
  add_measured_option(*cmd, opt->measured,
                      "each run as read instead of the fabric: what NCCL did on each host, its sizes, the log's "
                      "findings (--nodes-dir: against each GPU's nearest HCA)");
  cmd->callback([opt] {
    const Cluster cluster = load_cluster(opt->inputs);
    std::optional<NodeSet> set;
    if (!opt->nodes.sources.nodes_dir.empty() || !opt->nodes.sources.node_classes.empty())
      set = load_node_set(opt->nodes.sources, opt->nodes.nodes);
    if (!opt->measured.empty()) {
      std::cout << measured_evidence_report(
          weigh_measured(cluster, read_measured(opt->measured), set ? &*set : nullptr), opt->json);
      return;
    }
    std::cout << inspect_report(cluster, set ? &*set : nullptr, opt->json);
    if (!opt->save.empty()) atomic_write(opt->save, snapshot_to_json(Snapshot{cluster.fabrics}));
    if (!opt->suggest_map.empty())
      atomic_write(opt->suggest_map, suggested_name_map(cluster, cluster.guesses, command_line(opt->inputs)));
  });
}

}  // namespace slurmtopo::cli
