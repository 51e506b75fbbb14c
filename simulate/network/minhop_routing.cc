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

#include "simulate/network/lane_walk.h"
#include "simulate/network/routing_engines.h"

namespace slurmtopo {
namespace {

class MinHopRouting final : public SinglePathRouting {
 public:
  explicit MinHopRouting(std::shared_ptr<const FabricIndex> index) : index_(std::move(index)) {
    // Each switch port's cable and far switch in 8 bytes, in the index's port order: what a
    // hop reads once D-mod-K has picked the port, kept small enough to stay in cache.
    const int switches = static_cast<int>(index_->cluster().switches.size());
    first_hop_.reserve(switches + 1);
    for (int s = 0; s < switches; ++s) {
      first_hop_.push_back(static_cast<int>(hops_.size()));
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s))) hops_.push_back(PackedHop::of(e));
    }
    first_hop_.push_back(static_cast<int>(hops_.size()));
    fabric_of_ = fabric_of_switches(index_->cluster());
  }

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

  // What route_into gives each pair, many flows walked at once (simulate/network/lane_walk.h).
  void route_many(const std::pair<int, int>* pairs, size_t n, RouteSet& out) const override {
    out.clear();
    out.flows.resize(n);
    auto start = [&](size_t f, Lane& l, std::vector<DirectedLink>& links) {
      bool local;
      const auto ends = single_path_ends(*index_, pairs[f].first, pairs[f].second, local);
      if (!ends.first) return local ? Walked::Arrived : Walked::Unreachable;
      const HcaAttachment &a = *ends.first, &b = *ends.second;
      const RouteTarget& target = index_->target(b.leaf);
      if (target.dist[a.leaf] == FabricIndex::kUnreachable) return Walked::Unreachable;
      links.push_back(a.up);
      if (a.leaf == b.leaf) {
        links.push_back(b.down);
        return Walked::Arrived;
      }
      __builtin_prefetch(&target.next[a.leaf]);
      l = Lane{a.leaf, 0, &b, &target};
      return Walked::Walking;
    };
    auto step = [&](Lane& l, std::vector<DirectedLink>& links) {
      int position = FabricIndex::dmodk_memo_place(*l.target, l.sw, l.dst->lid);
      if (position < 0) {
        const PortEntry* e = index_->dmodk_next_hop(l.sw, *l.target, l.dst->lid);
        if (!e) return Walked::Unreachable;
        position = static_cast<int>(e - index_->ports(index_->switch_vertex(l.sw)).data());
      }
      const PackedHop& hop = hops_[first_hop_[l.sw] + position];
      links.push_back(hop.out(fabric_of_[l.sw]));
      l.sw = hop.peer;  // D-mod-K only picks switches: a CA (~vertex) is a broken memo
      // Each hop is one closer by the target's distances; more hops than switches would be a
      // broken memo, not a route.
      if (l.sw < 0 || ++l.hops > static_cast<int>(fabric_of_.size())) return Walked::Unreachable;
      if (l.sw == l.dst->leaf) {
        links.push_back(l.dst->down);
        return Walked::Arrived;
      }
      __builtin_prefetch(&l.target->next[l.sw]);
      return Walked::Walking;
    };
    walk_lanes<Lane>(n, start, step, [&](size_t f, const DirectedLink* links, int count, bool reachable) {
      add_walked(out, f, links, count, reachable);
    });
  }

 private:
  struct Lane {
    int sw, hops;
    const HcaAttachment* dst;
    const RouteTarget* target;
  };
  std::shared_ptr<const FabricIndex> index_;
  std::vector<PackedHop> hops_;  // by first_hop_[switch] + the port's place in index_->ports
  std::vector<int> first_hop_;  // by switch index, and one past the last
  std::vector<int> fabric_of_;  // by switch index
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
