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

}  // namespace slurmtopo::cli
