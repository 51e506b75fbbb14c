#include "simulate/network/fabric_model.h"

namespace slurmtopo {

FabricModel::FabricModel(const Cluster& cluster, RoutingKind kind)
    : FabricModel(cluster, make_routing(cluster, kind)) {}

FabricModel::FabricModel(const Cluster& cluster, std::unique_ptr<Routing> routing)
    : cluster_(&cluster), routing_(std::move(routing)), cables_(make_fabric_resources(cluster)) {
  capacity_.reserve(cables_.resources.size());
  for (const Resource& r : cables_.resources) capacity_.push_back(static_cast<float>(r.capacity));
}

}  // namespace slurmtopo
