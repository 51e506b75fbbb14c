// Routing by forwarding tables: from the source HCA's switch, look up the destination LID in
// each switch's linear forwarding table and leave by that port until the destination HCA is
// reached. A missing table or entry (255), port 0 (the switch itself), an uncabled port, a
// cable into another CA or more hops than there are switches (a loop) make the destination
// unreachable: route() returns no path.
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
    hops_.assign(static_cast<size_t>(switches) * stride_, Hop{});
    fabric_of_.assign(switches, 0);
    for (int s = 0; s < switches; ++s)
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s))) {
        fabric_of_[s] = e.out.fabric;
        hops_[static_cast<size_t>(s) * stride_ + e.port] =
            Hop{2 * e.out.link + (e.out.a_to_b ? 0 : 1), e.peer_switch >= 0 ? e.peer_switch : ~e.peer};
      }
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
      out.flows[f] = {static_cast<int>(out.paths.size()), reachable ? 1 : 0};
      if (!reachable) return;
      out.paths.push_back({{static_cast<int>(out.links.size()), count}, 1.0});
      out.links.insert(out.links.end(), links, links + count);
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
  struct Hop {
    int link2 = -1;  // the cable out: 2 × its link + (0 from end a, 1 from end b); -1: none
    int peer = 0;    // the far end: its switch index, or ~vertex when it is not a switch
    DirectedLink out(int fabric) const { return DirectedLink{fabric, link2 >> 1, (link2 & 1) == 0}; }
  };
  int stride_ = 1;          // ports per switch in hops_ (the largest port number + 1)
  std::vector<Hop> hops_;   // by switch index * stride_ + port
  std::vector<int> fabric_of_;  // by switch index

  // A flow being walked: the switch whose table entry for it, already prefetched, is its next
  // read; its links so far are in one of the walk's buffers.
  struct Lane {
    size_t flow;
    int sw, hops;
    const HcaAttachment* dst;
    int buffer;
  };

  const uint8_t* entry(int sw, uint32_t lid) const {
    const Table& t = table_of_[sw];
    return t.entries && lid < t.size ? t.entries + lid : nullptr;
  }

  // Walks up to kLanes flows at a time, one read per flow per round, prefetching the read
  // each flow makes next: the walk is memory-bound, and this keeps kLanes misses in flight.
  // Flows finish in any order: sink(flow, links, count, reachable) is called once per flow.
  template <typename Sink>
  void walk(const std::pair<int, int>* pairs, size_t n, Sink&& sink) const {
    constexpr int kLanes = 16;
    Lane lanes[kLanes];
    std::vector<DirectedLink> buffers[kLanes];
    int free_buffers[kLanes];
    for (int b = 0; b < kLanes; ++b) free_buffers[b] = b;
    int active = 0, spare = kLanes;
    size_t next = 0;
    const int max_hops = static_cast<int>(table_of_.size()) + 1;
    auto start = [&] {
      while (next < n && active < kLanes) {
        const size_t f = next++;
        bool local;
        const auto ends = single_path_ends(*index_, pairs[f].first, pairs[f].second, local);
        if (!ends.first) {
          sink(f, nullptr, 0, local);
          continue;
        }
        const int b = free_buffers[--spare];
        buffers[b].clear();
        buffers[b].push_back(ends.first->up);
        const uint8_t* e = entry(ends.first->leaf, ends.second->lid);
        if (e) __builtin_prefetch(e);
        lanes[active++] = Lane{f, ends.first->leaf, 0, ends.second, b};
      }
    };
    start();
    while (active > 0) {
      for (int j = 0; j < active;) {
        Lane& l = lanes[j];
        std::vector<DirectedLink>& links = buffers[l.buffer];
        int outcome = 0;  // 0 walking, 1 arrived, -1 unreachable
        const uint8_t* e = entry(l.sw, l.dst->lid);
        const uint8_t port = e ? *e : ForwardingTables::kNoPort;
        const Hop* hop = port == ForwardingTables::kNoPort || port == 0 || port >= stride_
                             ? nullptr
                             : &hops_[static_cast<size_t>(l.sw) * stride_ + port];
        if (!hop || hop->link2 < 0) {
          outcome = -1;
        } else {
          links.push_back(hop->out(fabric_of_[l.sw]));
          if (hop->peer == ~l.dst->vertex) {
            outcome = 1;
          } else if (hop->peer < 0 || ++l.hops >= max_hops) {
            outcome = -1;  // into another CA, or a forwarding loop
          } else {
            l.sw = hop->peer;
            if (const uint8_t* next_entry = entry(l.sw, l.dst->lid)) __builtin_prefetch(next_entry);
          }
        }
        if (outcome != 0) {
          sink(l.flow, links.data(), static_cast<int>(links.size()), outcome > 0);
          free_buffers[spare++] = l.buffer;
          lanes[j] = lanes[--active];
          start();
        } else {
          ++j;
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind) {
  return std::make_unique<TableRouting>(std::move(index), std::move(tables), kind);
}

}  // namespace slurmtopo
