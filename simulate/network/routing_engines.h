// Internal to simulate/: the routing engines behind make_routing, over one shared FabricIndex.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "simulate/network/fabric_index.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

// The engines that give one path per pair (minhop's D-mod-K, walks of forwarding tables):
// route() is what route_into() gives, and every route starts alike.
class SinglePathRouting : public Routing {
 public:
  std::vector<PathShare> route(int src, int dst) const final;

 protected:
  // Makes `out` one PathShare of share 1 with no links and returns the two HCAs' attachments
  // to walk between, or {nullptr, nullptr} when there is nothing to walk: src == dst keeps
  // the empty path (the traffic never leaves the HCA); an uncabled HCA or another fabric
  // clears `out` (unreachable).
  // (Defined here: it is on the path of every route a placement's prediction takes.)
  static std::pair<const HcaAttachment*, const HcaAttachment*> start_single_path(const FabricIndex& index, int src,
                                                                              int dst, std::vector<PathShare>& out) {
    out.resize(1);
    out.front().share = 1.0;
    out.front().links.clear();
    if (src == dst) return {nullptr, nullptr};
    const HcaAttachment& a = index.hca(src);
    const HcaAttachment& b = index.hca(dst);
    if (a.leaf < 0 || b.leaf < 0 || a.fabric != b.fabric) {
      out.clear();
      return {nullptr, nullptr};
    }
    return {&a, &b};
  }
};

std::unique_ptr<Routing> make_minhop_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_adaptive_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_ftree_routing(std::shared_ptr<const FabricIndex> index);
std::unique_ptr<Routing> make_table_routing(std::shared_ptr<const FabricIndex> index,
                                            ForwardingTables tables, RoutingKind kind);

ForwardingTables minhop_tables(const FabricIndex& index);
ForwardingTables ftree_tables(const FabricIndex& index);

}  // namespace slurmtopo
