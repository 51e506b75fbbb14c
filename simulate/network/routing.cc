#include "simulate/network/routing.h"

#include <algorithm>
#include <cctype>

#include "base/input_error.h"
#include "simulate/network/routing_engines.h"

namespace slurmtopo {

std::vector<PathShare> SinglePathRouting::route(int src, int dst) const {
  std::vector<PathShare> out;
  route_into(src, dst, out);
  return out;
}

void RouteSet::add(const std::vector<PathShare>& route) {
  flows.push_back({static_cast<int>(paths.size()), static_cast<int>(route.size())});
  for (const PathShare& ps : route) {
    paths.push_back({{static_cast<int>(links.size()), static_cast<int>(ps.links.size())}, ps.share});
    links.insert(links.end(), ps.links.begin(), ps.links.end());
  }
}

void Routing::route_many(const std::pair<int, int>* pairs, size_t n, RouteSet& out) const {
  out.clear();
  std::vector<PathShare> one;
  for (size_t i = 0; i < n; ++i) {
    route_into(pairs[i].first, pairs[i].second, one);
    out.add(one);
  }
}

RoutingKind parse_routing_kind(const std::string& name) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n == "lft") return RoutingKind::Lft;
  if (n == "minhop" || n == "dmodk") return RoutingKind::MinHop;
  if (n == "ftree") return RoutingKind::Ftree;
  if (n == "adaptive") return RoutingKind::Adaptive;
  throw InputError("--routing", 0, "expected lft, minhop, ftree or adaptive, not '" + name + "'");
}

const char* to_string(RoutingKind kind) {
  switch (kind) {
    case RoutingKind::Lft: return "lft";
    case RoutingKind::MinHop: return "minhop";
    case RoutingKind::Ftree: return "ftree";
    case RoutingKind::Adaptive: return "adaptive";
  }
  return "?";
}

std::unique_ptr<Routing> make_routing(const Cluster& cluster, RoutingKind kind) {
  auto index = std::make_shared<const FabricIndex>(cluster);
  switch (kind) {
    case RoutingKind::MinHop: return make_minhop_routing(std::move(index));
    case RoutingKind::Ftree: return make_ftree_routing(std::move(index));
    case RoutingKind::Adaptive: return make_adaptive_routing(std::move(index));
    case RoutingKind::Lft: break;
  }
  // The tables the fabrics carry (a live sweep with --routes, or its snapshot). Switch GUIDs
  // are unique across subnets, so the fabrics' tables merge into one map.
  ForwardingTables tables;
  for (const Fabric& f : cluster.fabrics)
    tables.by_switch.insert(f.routes.by_switch.begin(), f.routes.by_switch.end());
  if (!tables.empty()) return make_lft_routing(cluster, std::move(tables));
  const std::string source = cluster.fabrics.empty() ? "fabric" : cluster.fabrics.front().source;
  throw InputError(source, 0,
                   "lft routing needs the switches' forwarding tables, which this fabric model "
                   "does not carry; give a dump_fts/ibroute dump, or a snapshot saved by "
                   "`discover fabric --routes --save`, or choose minhop, ftree or adaptive routing");
}

std::unique_ptr<Routing> make_lft_routing(const Cluster& cluster, ForwardingTables tables) {
  return make_table_routing(std::make_shared<const FabricIndex>(cluster), std::move(tables),
                            RoutingKind::Lft);
}

}  // namespace slurmtopo
