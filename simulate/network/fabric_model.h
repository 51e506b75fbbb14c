// One cluster's network as every prediction on it sees it: the routing the subnet manager set
// up (or a model of it) and one max-min resource per cable direction.
#pragma once

#include <memory>
#include <vector>

#include "graph/cluster.h"
#include "simulate/network/fabric_resources.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

// What predictions on one cluster share, read-only and safe to use from several threads:
// the routing and the cable-direction resources.
class FabricModel {
 public:
  FabricModel(const Cluster& cluster, RoutingKind kind);
  FabricModel(const Cluster& cluster, std::unique_ptr<Routing> routing);

  const Cluster& cluster() const { return *cluster_; }
  const Routing& routing() const { return *routing_; }
  // The cable directions' numbering (index(), link_of()); its `resources` are not built:
  // cable_count(), capacity() and cable_name() stand for them.
  const FabricResources& cables() const { return cables_; }
  size_t cable_count() const { return capacity_.size(); }
  // make_fabric_resources' capacity, packed: a placement touches cables all over a large
  // fabric, and this is what each first touch has to read.
  double capacity(int cable) const { return capacity_[cable]; }
  // make_fabric_resources' name, made when a bottleneck is reported.
  std::string cable_name(int cable) const { return slurmtopo::cable_name(*cluster_, cables_, cable); }

 private:
  const Cluster* cluster_;
  std::unique_ptr<Routing> routing_;
  FabricResources cables_;
  std::vector<float> capacity_;
};

}  // namespace slurmtopo
