// provenance(): the report's "who, of what, when" rows, one list for every rendering.
#include "report/commission.h"

namespace slurmtopo {

std::vector<std::pair<std::string, std::string>> provenance(const CommissionReport& r) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("cluster", r.cluster.empty() ? "not named (--cluster-name NAME, or --slurm-conf with a ClusterName)"
                                                 : r.cluster + " (" + r.cluster_from + ")");
  for (const FabricSummary& f : r.inventory.fabrics)
    rows.emplace_back("fabric " + f.name,
                      f.source + ", captured " +
                          (f.captured.empty() ? "at a time the input does not record" : f.captured + " (as the input records it)"));
  rows.emplace_back("slurmtopo", slurmtopo_version());
  return rows;
}

}  // namespace slurmtopo
