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
  // The two HCAs' attachments to walk between, or {nullptr, nullptr} when there is nothing to
  // walk: then `local` says whether src == dst (one path of no links: the traffic never leaves
  // the HCA) or not (unreachable: an uncabled HCA or another fabric).
  // (Defined here: it is on the path of every route a placement's prediction takes.)
  static std::pair<const HcaAttachment*, const HcaAttachment*> single_path_ends(const FabricIndex& index, int src,
                                                                             int dst, bool& local) {
    local = src == dst;
    if (local) return {nullptr, nullptr};
    const HcaAttachment& a = index.hca(src);
    const HcaAttachment& b = index.hca(dst);
    if (a.leaf < 0 || b.leaf < 0 || a.fabric != b.fabric) return {nullptr, nullptr};
    return {&a, &b};
  }
  // The same, making `out` one PathShare of share 1 with no links (walks append to it), or
  // none when unreachable.
  static std::pair<const HcaAttachment*, const HcaAttachment*> start_single_path(const FabricIndex& index, int src,
                                                                              int dst, std::vector<PathShare>& out) {
    bool local;
    const auto ends = single_path_ends(index, src, dst, local);
    out.resize(ends.first || local ? 1 : 0);
    if (!out.empty()) {
      out.front().share = 1.0;
      out.front().links.clear();
    }
    return ends;
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
