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
    // per hop, which is most of what a prediction with forwarding tables costs.
    for (int s = 0; s < switches; ++s)
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s))) stride_ = std::max(stride_, e.port + 1);
    hops_.assign(static_cast<size_t>(switches) * stride_, Hop{});
    for (int s = 0; s < switches; ++s)
      for (const PortEntry& e : index_->ports(index_->switch_vertex(s)))
        hops_[static_cast<size_t>(s) * stride_ + e.port] = Hop{e.out, e.peer, e.peer_switch};
  }

  RoutingKind kind() const override { return kind_; }

  void route_into(int src, int dst, std::vector<PathShare>& out) const override {
    const auto ends = start_single_path(*index_, src, dst, out);
    if (!ends.first) return;
    const HcaAttachment &a = *ends.first, &b = *ends.second;
    PathShare& path = out.front();
    path.links.push_back(a.up);
    const int max_hops = static_cast<int>(table_of_.size()) + 1;
    int sw = a.leaf;
    for (int hops = 0; hops < max_hops; ++hops) {
      const Table& table = table_of_[sw];
      if (!table.entries || b.lid >= table.size) return out.clear();
      const uint8_t port = table.entries[b.lid];
      if (port == ForwardingTables::kNoPort || port == 0 || port >= stride_) return out.clear();
      const Hop& hop = hops_[static_cast<size_t>(sw) * stride_ + port];
      if (hop.peer < 0) return out.clear();
      path.links.push_back(hop.out);
      if (hop.peer == b.vertex) return;
      sw = hop.peer_switch;
      if (sw < 0) return out.clear();
    }
    out.clear();  // a forwarding loop
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
    DirectedLink out;
    int peer = -1;         // vertex at the far end; -1: no cable on this port
    int peer_switch = -1;  // its switch index; -1 when it is not a switch
  };
  int stride_ = 1;         // ports per switch in hops_ (the largest port number + 1)
  std::vector<Hop> hops_;  // by switch index * stride_ + port
};

}  // namespace

std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind) {
  return std::make_unique<TableRouting>(std::move(index), std::move(tables), kind);
}

}  // namespace slurmtopo
