// Everything that goes into a Cluster, read from the files the admin names.
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

struct ClusterInputs {
  std::vector<std::string> fabric_files;  // --fabric, one per subnet
  std::string name_map;                   // --node-name-map (also GUID→hostname lists)
  std::string site_config;                // --config site.yaml
  std::vector<std::string> counter_files; // --counters: ibqueryerrors, perfquery, ibdiagnet2.pm
  std::vector<std::string> plan_files;    // --plan: cable list, ibdm topology file or a fabric accepted earlier
  std::string plan_name_map;              // --plan-name-map: plan names → fabric names
  bool judge_cable_rates = true;          // ClusterOptions::judge_cable_rates
};

// Throws InputError naming the file and line of the first bad input.
Cluster load_cluster(const ClusterInputs& inputs);
// The site config and name map alone, for fabrics that come from elsewhere: a live sweep, or
// fabrics edited by whatif, rebuilt the same way.
ClusterOptions load_cluster_options(const ClusterInputs& inputs);

}  // namespace slurmtopo
