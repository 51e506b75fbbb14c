// OpenSM-style min-hop routing with D-mod-K up-port spreading.
//
// For a destination LID d, every switch forwards on a shortest path toward the switch that
// delivers d; when several next hops are equally short (the up-ports of a fat tree, parallel
// cables) it takes the one at index d mod count among them in port-number order. Routes are per
// destination: every source crossing a switch shares its choice, which is what makes D-mod-K
// collisions real and predictable (two destinations whose LIDs agree mod the up-port count
// leave every leaf on the same uplink).
//
// OpenSM's own minhop balances by counting the routes already assigned to each port rather
// than d mod count; on a regular tree with consecutive LIDs the two agree (each leaf's
// destinations go round-robin over the ports), elsewhere D-mod-K is the documented model.
//
// No per-destination table is built: hop distances depend only on the destination's switch,
// so one cached breadth-first search per destination switch (FabricIndex::target) gives every
// route; each switch's next hops toward it are located once (a scan of its ports) and, being
// consecutive ports on a fat tree, picked in O(1) afterwards.
#include <algorithm>

#include "simulate/network/routing_engines.h"

namespace slurmtopo {
namespace {

class MinHopRouting final : public SinglePathRouting {
 public:
  explicit MinHopRouting(std::shared_ptr<const FabricIndex> index) : index_(std::move(index)) {}

  RoutingKind kind() const override { return RoutingKind::MinHop; }

  void route_into(int src, int dst, std::vector<PathShare>& out) const override {
    const auto ends = start_single_path(*index_, src, dst, out);
    if (!ends.first) return;
    const HcaAttachment &a = *ends.first, &b = *ends.second;
    PathShare& path = out.front();
    const RouteTarget& target = index_->target(b.leaf);
    const uint16_t hops = target.dist[a.leaf];
    if (hops == FabricIndex::kUnreachable) return out.clear();
    path.links.push_back(a.up);
    for (int sw = a.leaf; sw != b.leaf;) {
      const PortEntry* next = index_->dmodk_next_hop(sw, target, b.lid);
      path.links.push_back(next->out);
      sw = index_->switch_of(next->peer);
    }
    path.links.push_back(b.down);
  }

 private:
  std::shared_ptr<const FabricIndex> index_;
};

}  // namespace

std::unique_ptr<Routing> make_minhop_routing(std::shared_ptr<const FabricIndex> index) {
  return std::make_unique<MinHopRouting>(std::move(index));
}

ForwardingTables minhop_tables(const FabricIndex& index) {
  const Cluster& c = index.cluster();
  ForwardingTables tables;
  std::vector<std::vector<uint8_t>*> table_of(c.switches.size(), nullptr);
  for (int s = 0; s < static_cast<int>(c.switches.size()); ++s) {
    auto& t = tables.by_switch[c.switches[s].guid];
    t.assign(index.max_lid(c.switches[s].fabric) + 1, ForwardingTables::kNoPort);
    table_of[s] = &t;
  }
  std::vector<uint16_t> dist;
  std::vector<const PortEntry*> next;
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    // Endpoints grouped by the switch that delivers them: one search per such switch.
    std::vector<LidEndpoint> eps = index.endpoints(f);
    std::stable_sort(eps.begin(), eps.end(), [](const LidEndpoint& x, const LidEndpoint& y) {
      return x.target_switch < y.target_switch;
    });
    for (size_t i = 0; i < eps.size();) {
      size_t end = i;
      const int target = eps[i].target_switch;
      while (end < eps.size() && eps[end].target_switch == target) ++end;
      index.compute_distances(target, dist);
      for (int s = 0; s < static_cast<int>(c.switches.size()); ++s) {
        if (dist[s] == FabricIndex::kUnreachable) continue;
        std::vector<uint8_t>& table = *table_of[s];
        if (s == target) {
          for (size_t k = i; k < end; ++k) table[eps[k].lid] = static_cast<uint8_t>(eps[k].target_port);
          continue;
        }
        index.next_hops(s, dist, next);
        for (size_t k = i; k < end; ++k)
          table[eps[k].lid] = static_cast<uint8_t>(next[eps[k].lid % next.size()]->port);
      }
      i = end;
    }
  }
  return tables;
}

ForwardingTables compute_minhop_tables(const Cluster& cluster) {
  return minhop_tables(FabricIndex(cluster));
}

}  // namespace slurmtopo
