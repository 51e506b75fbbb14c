#include "graph/cable_names.h"

namespace slurmtopo {

CableNames::CableNames(const Cluster& cluster, const std::vector<int>& switch_of)
    : c_(cluster), switch_of_(switch_of), hca_of_(boost::num_vertices(cluster.graph), -1) {
  for (int i = 0; i < static_cast<int>(c_.hcas.size()); ++i) hca_of_[c_.hcas[i].vertex] = i;
}

CableNames::CableNames(const Cluster& cluster)
    : CableNames(cluster, std::vector<int>(boost::num_vertices(cluster.graph), -1)) {
  for (int i = 0; i < static_cast<int>(c_.switches.size()); ++i) switch_of_[c_.switches[i].vertex] = i;
}

std::string CableNames::end(Vertex v, int port) const {
  if (switch_of_[v] >= 0) return c_.switches[switch_of_[v]].name + "[" + std::to_string(port) + "]";
  if (hca_of_[v] >= 0 && !c_.hcas[hca_of_[v]].host.empty()) {
    const Hca& h = c_.hcas[hca_of_[v]];
    return h.rail.empty() ? h.host : h.host + " " + h.rail;
  }
  const FabricNode& n = c_.node(v);
  return "0x" + guid_hex(n.guid) + "[" + std::to_string(port) + "]";
}

}  // namespace slurmtopo
