// Adaptive routing, idealised: every flow spreads over all shortest paths, each switch
// splitting what reaches it evenly over its next hops toward the destination (per packet, as
// adaptive routing on an AR-enabled SL does; parallel cables count as separate next hops).
// What matters for contention is the load on each cable direction, and that is exact here.
//
// Output (see PathShare in routing.h): the paths themselves, each with the product of the
// splits along it, while a flow has at most kMaxPaths of them; beyond that (a 3-level k=64
// tree has thousands of paths between pods) the links in hop order, grouped into PathShares
// by the share they carry (shares equal up to rounding, 1e-12 relative, count as one).
#include <algorithm>
#include <cmath>

#include "simulate/network/routing_engines.h"

namespace slurmtopo {
namespace {

constexpr double kMaxPaths = 64;

class AdaptiveRouting final : public Routing {
 public:
  explicit AdaptiveRouting(std::shared_ptr<const FabricIndex> index) : index_(std::move(index)) {}

  RoutingKind kind() const override { return RoutingKind::Adaptive; }

  std::vector<PathShare> route(int src, int dst) const override {
    if (src == dst) return {PathShare{}};
    const HcaAttachment& a = index_->hca(src);
    const HcaAttachment& b = index_->hca(dst);
    if (a.leaf < 0 || b.leaf < 0 || a.fabric != b.fabric) return {};
    const std::vector<uint16_t>& dist = index_->distances_to(b.leaf);
    if (dist[a.leaf] == FabricIndex::kUnreachable) return {};

    // Layer by layer toward the destination switch: the share reaching each switch, and how
    // many shortest paths reach it.
    struct Reach { int sw; double share; double paths; };
    struct Hop { DirectedLink link; double share; };
    std::vector<Reach> layer{{a.leaf, 1.0, 1.0}}, next_layer;
    std::vector<Hop> hops;
    std::vector<const PortEntry*> next;
    while (layer.front().sw != b.leaf) {
      next_layer.clear();
      for (const Reach& r : layer) {
        index_->next_hops(r.sw, dist, next);
        const double part = r.share / static_cast<double>(next.size());
        for (const PortEntry* e : next) {
          hops.push_back({e->out, part});
          next_layer.push_back({index_->switch_of(e->peer), part, r.paths});
        }
      }
      std::sort(next_layer.begin(), next_layer.end(),
                [](const Reach& x, const Reach& y) { return x.sw < y.sw; });
      layer.clear();
      for (const Reach& r : next_layer) {
        if (!layer.empty() && layer.back().sw == r.sw) {
          layer.back().share += r.share;
          layer.back().paths += r.paths;
        } else {
          layer.push_back(r);
        }
      }
    }
    const double paths = layer.front().paths;

    if (paths <= kMaxPaths) {
      std::vector<PathShare> out;
      PathShare path;
      path.links.push_back(a.up);
      enumerate(a.leaf, b, dist, 1.0, path, out);
      return out;
    }

    // Too many paths: the links in hop order, a new group wherever the share changes (shares
    // equal up to rounding, 0.01 summed ten times vs 0.1, count as equal).
    std::vector<PathShare> out;
    auto add = [&](const DirectedLink& link, double share) {
      if (out.empty() || std::abs(out.back().share - share) > 1e-12 * out.back().share)
        out.push_back(PathShare{{}, share});
      out.back().links.push_back(link);
    };
    add(a.up, 1.0);
    for (const Hop& h : hops) add(h.link, h.share);
    add(b.down, 1.0);
    return out;
  }

 private:
  void enumerate(int sw, const HcaAttachment& b, const std::vector<uint16_t>& dist, double share,
                 PathShare& path, std::vector<PathShare>& out) const {
    if (sw == b.leaf) {
      path.links.push_back(b.down);
      out.push_back(PathShare{path.links, share});
      path.links.pop_back();
      return;
    }
    std::vector<const PortEntry*> next;
    index_->next_hops(sw, dist, next);
    const double part = share / static_cast<double>(next.size());
    for (const PortEntry* e : next) {
      path.links.push_back(e->out);
      enumerate(index_->switch_of(e->peer), b, dist, part, path, out);
      path.links.pop_back();
    }
  }

  std::shared_ptr<const FabricIndex> index_;
};

}  // namespace

std::unique_ptr<Routing> make_adaptive_routing(std::shared_ptr<const FabricIndex> index) {
  return std::make_unique<AdaptiveRouting>(std::move(index));
}

}  // namespace slurmtopo
