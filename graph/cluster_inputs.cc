#include "graph/cluster_inputs.h"

#include <set>

#include "base/input_error.h"
#include "discover/counters_file.h"
#include "discover/fabric_file.h"
#include "discover/plan_file.h"
#include "graph/cluster_cables.h"

namespace slurmtopo {

ClusterOptions load_cluster_options(const ClusterInputs& inputs) {
  ClusterOptions options;
  options.judge_cable_rates = inputs.judge_cable_rates;
  if (!inputs.site_config.empty()) options.site = load_site_config(inputs.site_config);
  if (!inputs.name_map.empty()) options.names = load_name_map(inputs.name_map);
  for (const auto& file : inputs.counter_files) options.counters.push_back(load_counters_file(file));
  PlanNameMap plan_names;
  if (!inputs.plan_name_map.empty()) plan_names = load_plan_name_map(inputs.plan_name_map);
  for (const auto& file : inputs.plan_files) {
    std::optional<CablePlan> plan = read_plan_file(file);
    if (!plan) {
      // A fabric accepted earlier, named by the same site config and map as the fabric it checks.
      ClusterOptions plain;
      plain.site = options.site;
      plain.names = options.names;
      plain.judge_cable_rates = false;
      plan = cluster_cables(build_cluster(load_fabric_file(file), plain));
      plan->source = file;
    }
    rename_devices(*plan, plan_names);
    options.plans.push_back(std::move(*plan));
  }
  return options;
}

Cluster load_cluster(const ClusterInputs& inputs) {
  ClusterOptions options = load_cluster_options(inputs);
  std::vector<Fabric> fabrics;
  std::set<std::string> names;
  for (const auto& file : inputs.fabric_files)
    for (auto& f : load_fabric_file(file)) {
      // Two dumps named alike (a/fabric.txt, b/fabric.txt) still need distinct labels.
      std::string base = f.name.empty() ? "fabric" : f.name;
      f.name = base;
      for (int k = 2; names.count(f.name); ++k) f.name = base + "-" + std::to_string(k);
      names.insert(f.name);
      fabrics.push_back(std::move(f));
    }
  return build_cluster(std::move(fabrics), options);
}

}  // namespace slurmtopo
