// Routing by forwarding tables: from the source HCA's switch, look up the destination LID in
// each switch's linear forwarding table and leave by that port until the destination HCA is
// reached. A missing table or entry (255), port 0 (the switch itself), an uncabled port, a
// cable into another CA or more hops than there are switches (a loop) make the destination
// unreachable: route() returns no path.
#include "simulate/routing_engines.h"

namespace slurmtopo {
namespace {

class TableRouting final : public Routing {
 public:
  TableRouting(std::shared_ptr<const FabricIndex> index, ForwardingTables tables, RoutingKind kind)
      : index_(std::move(index)), tables_(std::move(tables)), kind_(kind) {
    const Cluster& c = index_->cluster();
    table_of_.assign(c.switches.size(), nullptr);
    for (int s = 0; s < static_cast<int>(c.switches.size()); ++s) {
      auto it = tables_.by_switch.find(c.switches[s].guid);
      if (it != tables_.by_switch.end()) table_of_[s] = &it->second;
    }
  }

  RoutingKind kind() const override { return kind_; }

  std::vector<PathShare> route(int src, int dst) const override {
    if (src == dst) return {PathShare{}};
    const HcaAttachment& a = index_->hca(src);
    const HcaAttachment& b = index_->hca(dst);
    if (a.leaf < 0 || b.leaf < 0 || a.fabric != b.fabric) return {};
    PathShare path;
    path.links.reserve(8);
    path.links.push_back(a.up);
    const int max_hops = static_cast<int>(table_of_.size()) + 1;
    int sw = a.leaf;
    for (int hop = 0; hop < max_hops; ++hop) {
      const std::vector<uint8_t>* table = table_of_[sw];
      if (!table || b.lid >= table->size()) return {};
      const uint8_t out = (*table)[b.lid];
      if (out == ForwardingTables::kNoPort || out == 0) return {};
      const PortEntry* e = index_->port(index_->switch_vertex(sw), out);
      if (!e) return {};
      path.links.push_back(e->out);
      if (e->peer == b.vertex) return {std::move(path)};
      sw = index_->switch_of(e->peer);
      if (sw < 0) return {};
    }
    return {};
  }

 private:
  std::shared_ptr<const FabricIndex> index_;
  ForwardingTables tables_;
  RoutingKind kind_;
  std::vector<const std::vector<uint8_t>*> table_of_;  // by switch index
};

}  // namespace

std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind) {
  return std::make_unique<TableRouting>(std::move(index), std::move(tables), kind);
}

}  // namespace slurmtopo
