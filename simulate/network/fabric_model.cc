#include "simulate/network/fabric_model.h"

namespace slurmtopo {

FabricModel::FabricModel(const Cluster& cluster, RoutingKind kind)
    : FabricModel(cluster, make_routing(cluster, kind)) {}

FabricModel::FabricModel(const Cluster& cluster, std::unique_ptr<Routing> routing)
    : cluster_(&cluster), routing_(std::move(routing)), cables_(number_cables(cluster)) {
  // As make_fabric_resources: each cable's rate in both directions, in its order.
  size_t cables = 0;
  for (const Fabric& f : cluster.fabrics) cables += f.links.size();
  capacity_.reserve(2 * cables);
  for (const Fabric& f : cluster.fabrics)
    for (const Link& link : f.links) {
      const float capacity = static_cast<float>(link.gbps() / 8.0 * kCableEfficiency);
      capacity_.push_back(capacity);
      capacity_.push_back(capacity);
    }
}

}  // namespace slurmtopo
