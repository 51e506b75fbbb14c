#include "cli/commands.h"

namespace slurmtopo::cli {

void add_cluster_options(CLI::App& app, ClusterInputs& inputs) {
  app.add_option("--fabric", inputs.fabric_files,
                 "ibnetdiscover text, libibnetdisc cache or slurmtopo snapshot; repeat once per subnet")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--node-name-map,--guid-map", inputs.name_map,
                 "GUID to host name: ibnetdiscover --node-name-map format or 'GUID name' lines")
      ->check(CLI::ExistingFile);
  app.add_option("--config", inputs.site_config, "site.yaml: host regex, exclusions, expected links")
      ->check(CLI::ExistingFile);
}

}  // namespace slurmtopo::cli
