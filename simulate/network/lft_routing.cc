// Routing by forwarding tables: from the source HCA's switch, look up the destination LID in
// each switch's linear forwarding table and leave by that port until the destination HCA is
// reached. A missing table or entry (255), port 0 (the switch itself), an uncabled port, a
// cable into another CA or more hops than there are switches (a loop) make the destination
// unreachable: route() returns no path.
#include "simulate/network/lane_walk.h"
#include "simulate/network/routing_engines.h"

#include <algorithm>

namespace slurmtopo {
namespace {

class TableRouting final : public SinglePathRouting {
 public:
  TableRouting(std::shared_ptr<const FabricIndex> index, ForwardingTables tables, RoutingKind kind)
      : index_(std::move(index)), tables_(std::move(tables)), kind_(kind) {
    const Cluster& c = index_->cluster();
    const int switches = static_cast<int>(c.switches.size());
    // The table's bytes and length by switch index: a hop reads the entry itself, not first
    // the vector that holds it (one cache miss fewer per hop on a large fabric).
    table_of_.assign(switches, Table{});
    for (int s = 0; s < switches; ++s) {
      auto it = tables_.by_switch.find(c.switches[s].guid);
      if (it != tables_.by_switch.end()) table_of_[s] = Table{it->second.data(), it->second.size()};
    }
    // Every hop is a table lookup, then "where does this port lead": keeping the second in one
    // small array per switch (rather than walking the index's port lists) saves a cache miss
    // per hop, which is most of what a prediction with forwarding tables costs. At 8 bytes a
    // port it stays in a core's L2 (1.3 MB for the 2,560 switches of a 4,096-host k=64 tree).
    for (int s = 0; s < switches; ++s)
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s))) stride_ = std::max(stride_, e.port + 1);
    hops_.assign(static_cast<size_t>(switches) * stride_, PackedHop{});
    for (int s = 0; s < switches; ++s)
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s)))
        hops_[static_cast<size_t>(s) * stride_ + e.port] = PackedHop::of(e);
    fabric_of_ = fabric_of_switches(c);
  }

  RoutingKind kind() const override { return kind_; }

  void route_into(int src, int dst, std::vector<PathShare>& out) const override {
    const std::pair<int, int> pair{src, dst};
    walk(&pair, 1, [&](size_t, const DirectedLink* links, int count, bool reachable) {
      out.resize(reachable ? 1 : 0);
      if (!reachable) return;
      out.front().share = 1.0;
      out.front().links.assign(links, links + count);
    });
  }

  void route_many(const std::pair<int, int>* pairs, size_t n, RouteSet& out) const override {
    out.clear();
    out.flows.resize(n);
    walk(pairs, n, [&](size_t f, const DirectedLink* links, int count, bool reachable) {
      add_walked(out, f, links, count, reachable);
    });
  }

 private:
  std::shared_ptr<const FabricIndex> index_;
  ForwardingTables tables_;
  RoutingKind kind_;
  struct Table {
    const uint8_t* entries = nullptr;  // into tables_ (none: the switch has no table)
    size_t size = 0;
  };
  std::vector<Table> table_of_;  // by switch index
  int stride_ = 1;               // ports per switch in hops_ (the largest port number + 1)
  std::vector<PackedHop> hops_;  // by switch index * stride_ + port; link2 -1 where uncabled
  std::vector<int> fabric_of_;  // by switch index

  // A flow being walked: the switch whose table entry for it, already prefetched, is its next
  // read.
  struct Lane {
    int sw, hops;
    const HcaAttachment* dst;
  };

  const uint8_t* entry(int sw, uint32_t lid) const {
    const Table& t = table_of_[sw];
    return t.entries && lid < t.size ? t.entries + lid : nullptr;
  }

  template <typename Sink>
  void walk(const std::pair<int, int>* pairs, size_t n, Sink&& sink) const {
    const int max_hops = static_cast<int>(table_of_.size()) + 1;
    auto start = [&](size_t f, Lane& l, std::vector<DirectedLink>& links) {
      bool local;
      const auto ends = single_path_ends(*index_, pairs[f].first, pairs[f].second, local);
      if (!ends.first) return local ? Walked::Arrived : Walked::Unreachable;
      links.push_back(ends.first->up);
      if (const uint8_t* e = entry(ends.first->leaf, ends.second->lid)) __builtin_prefetch(e);
      l = Lane{ends.first->leaf, 0, ends.second};
      return Walked::Walking;
    };
    auto step = [&](Lane& l, std::vector<DirectedLink>& links) {
      const uint8_t* e = entry(l.sw, l.dst->lid);
      const uint8_t port = e ? *e : ForwardingTables::kNoPort;
      if (port == ForwardingTables::kNoPort || port == 0 || port >= stride_) return Walked::Unreachable;
      const PackedHop& hop = hops_[static_cast<size_t>(l.sw) * stride_ + port];
      if (hop.link2 < 0) return Walked::Unreachable;
      links.push_back(hop.out(fabric_of_[l.sw]));
      if (hop.peer == ~l.dst->vertex) return Walked::Arrived;
      if (hop.peer < 0 || ++l.hops >= max_hops) return Walked::Unreachable;  // into another CA, or a loop
      l.sw = hop.peer;
      if (const uint8_t* next = entry(l.sw, l.dst->lid)) __builtin_prefetch(next);
      return Walked::Walking;
    };
    walk_lanes<Lane>(n, start, step, sink);
  }
};

}  // namespace

std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind) {
  return std::make_unique<TableRouting>(std::move(index), std::move(tables), kind);
}

}  // namespace slurmtopo
