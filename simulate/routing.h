// How the fabric carries traffic from one HCA to another: the switch-by-switch path, from the
// subnet manager's forwarding tables when the model has them, otherwise modelled the way
// OpenSM routes (min-hop with D-mod-K up-port spreading, ftree), or an adaptive idealisation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

enum class RoutingKind { Lft, MinHop, Ftree, Adaptive };
RoutingKind parse_routing_kind(const std::string& name);  // throws InputError on unknown

// One direction of one cable: the unit of contention.
struct DirectedLink {
  int fabric = 0;
  int link = 0;        // index into Cluster::fabrics[fabric].links (the cable)
  bool a_to_b = true;  // direction: from the link's end `a` to its end `b`
};

// A path as the directed links it crosses, with the share of the flow each carries (1.0 for
// deterministic routing; fractions when adaptive routing spreads a flow over several paths).
struct PathShare {
  std::vector<DirectedLink> links;
  double share = 1.0;
};

class Routing {
 public:
  virtual ~Routing() = default;
  // Paths from HCA src to HCA dst (indices into Cluster::hcas). Empty when unreachable.
  virtual std::vector<PathShare> route(int src_hca, int dst_hca) const = 0;
};

// Lft requires forwarding tables in the fabric (Fabric::lfts, added by the live-discovery
// work); without them it throws InputError saying so.
std::unique_ptr<Routing> make_routing(const Cluster& cluster, RoutingKind kind);

}  // namespace slurmtopo
