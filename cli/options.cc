#include "cli/options.h"

namespace slurmtopo::cli {

CLI::Option* add_fabric_options(CLI::App& app, ClusterInputs& inputs, FabricOption need,
                                const std::string& fabric_help) {
  CLI::Option* fabric = nullptr;
  if (need != FabricOption::MapsOnly) {
    const std::string help = !fabric_help.empty() ? fabric_help
                             : need == FabricOption::Required
                                 ? "ibnetdiscover text, libibnetdisc cache or slurmtopo snapshot; repeat once per subnet"
                                 : "ibnetdiscover text, libibnetdisc cache or snapshot, to join GPUs to rails and leaves "
                                   "(repeatable)";
    fabric = app.add_option("--fabric", inputs.fabric_files, help)->check(CLI::ExistingFile);
    if (need == FabricOption::Required) fabric->required();
  }
  app.add_option("--node-name-map,--guid-map", inputs.name_map,
                 "GUID to host name: ibnetdiscover --node-name-map format or 'GUID name' lines")
      ->check(CLI::ExistingFile);
  app.add_option("--config", inputs.site_config, "site.yaml: host regex, exclusions, expected links")
      ->check(CLI::ExistingFile);
  return fabric;
}

void add_node_options(CLI::App& app, NodeInputs& inputs) {
  app.add_option("--nodes-dir", inputs.sources.nodes_dir,
                 "directory of <hostname>.xml (hwloc) / <hostname>.json (slurmtopo discover node)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--node-class", inputs.sources.node_classes, "'HOSTLIST=FILE' for identical hosts (repeatable)");
  app.add_option("--nodes", inputs.nodes, "hostlist of nodes that must all be described (a missing file is an error)");
}

CLI::Option* add_output_option(CLI::App& app, std::string& output, const std::string& what) {
  return app.add_option("-o,--output", output, what + " (\"-\" or absent: stdout)");
}

void add_topology_form_options(CLI::App& app, const TopologyFormOptions& into) {
  app.add_option("--format", *into.format, "conf (topology.conf) or yaml (topology.yaml, Slurm 25.05+)")
      ->check(CLI::IsMember({"conf", "yaml"}))
      ->capture_default_str();
  app.add_option("--plugin", *into.plugin, "tree or block (topology/block, 23.11+); in yaml: the cluster_default")
      ->check(CLI::IsMember({"tree", "block"}))
      ->capture_default_str();
  app.add_option("--nvlink-domains", *into.nvlink_domains,
                 "NVLink domains for topology/block: a HOST: CLUSTER_UUID[.CLIQUE] file, or collect's directory of "
                 "HOST.fabric.csv")
      ->check(CLI::ExistingPath);
}

}  // namespace slurmtopo::cli
