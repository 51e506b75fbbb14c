// Helpers for the routing tests: generated clusters, HCAs by host, paths as node names, and
// the max-min rates of a set of routed flows over the fabric's cable directions.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/network/fabric_resources.h"
#include "simulate/network/flow_sharing.h"
#include "simulate/network/routing.h"

namespace slurmtopo::test {

inline Cluster cluster_of(Fabric fabric) {
  std::vector<Fabric> fabrics;
  fabrics.push_back(std::move(fabric));
  return build_cluster(std::move(fabrics), {});
}

// The fabric with about a third of its switch-to-switch cables gone at random (`seed`) and,
// with `cut_first_leaf`, every uplink of the first host cable's leaf: unequal depths, detours,
// next hops that are not consecutive ports, unreachable switches.
inline Fabric thinned(Fabric f, unsigned seed, bool cut_first_leaf = false) {
  std::mt19937 rng(seed);
  auto is_ca = [&](const LinkEnd& e) { return f.find(e.guid)->kind == NodeKind::Ca; };
  uint64_t cut_leaf = 0;
  if (cut_first_leaf)
    for (const Link& l : f.links)
      if (!cut_leaf && (is_ca(l.a) || is_ca(l.b))) cut_leaf = is_ca(l.a) ? l.b.guid : l.a.guid;
  std::vector<Link> kept;
  for (const Link& l : f.links) {
    const bool host_cable = is_ca(l.a) || is_ca(l.b);
    const bool cut = cut_leaf && (l.a.guid == cut_leaf || l.b.guid == cut_leaf);
    if (host_cable || (!cut && std::uniform_int_distribution<>(0, 2)(rng) != 0)) kept.push_back(l);
  }
  f.links = kept;
  return f;
}

// "gpu" 7 → "gpu007": generated host names (3 digits below 1,000 hosts).
inline std::string host(const std::string& prefix, int n) {
  std::string digits = std::to_string(n);
  return prefix + std::string(digits.size() < 3 ? 3 - digits.size() : 0, '0') + digits;
}

inline int hca_of(const Cluster& c, const std::string& host, int rail = 0) {
  const int h = c.host_index(host);
  REQUIRE_MESSAGE(h >= 0, "no host " << host);
  return c.hosts[h].hcas.at(rail);
}

// "leaf001", "spine02", "gpu001 mlx5_0": what the model calls the node with this GUID.
inline std::string node_name(const Cluster& c, uint64_t guid) {
  for (const auto& s : c.switches)
    if (s.guid == guid) return s.name;
  for (const auto& h : c.hcas)
    if (h.guid == guid) return h.host + " " + h.rail;
  return guid_hex(guid);
}

inline const LinkEnd& from_end(const Cluster& c, const DirectedLink& d) {
  const Link& l = c.fabrics[d.fabric].links[d.link];
  return d.a_to_b ? l.a : l.b;
}
inline const LinkEnd& to_end(const Cluster& c, const DirectedLink& d) {
  const Link& l = c.fabrics[d.fabric].links[d.link];
  return d.a_to_b ? l.b : l.a;
}

// The nodes a path visits, first to last; empty for an empty path.
inline std::vector<std::string> nodes_of(const Cluster& c, const PathShare& p) {
  std::vector<std::string> out;
  if (p.links.empty()) return out;
  out.push_back(node_name(c, from_end(c, p.links.front()).guid));
  for (const auto& d : p.links) out.push_back(node_name(c, to_end(c, d).guid));
  return out;
}

// Max-min rates (GB/s) of flows src → dst routed by `routing`, over the cable directions only.
struct Shared {
  FabricResources fabric;
  Sharing sharing;
  std::vector<Flow> flows;
};
inline Shared share(const Cluster& c, const Routing& routing,
                    const std::vector<std::pair<int, int>>& pairs) {
  Shared s;
  s.fabric = make_fabric_resources(c);
  for (auto [src, dst] : pairs) {
    Flow f;
    add_path_resources(s.fabric, routing.route(src, dst), f);
    s.flows.push_back(std::move(f));
  }
  s.sharing = max_min_fair(s.fabric.resources, s.flows);
  return s;
}

}  // namespace slurmtopo::test
