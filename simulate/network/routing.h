// How the fabric carries traffic from one HCA to another: the switch-by-switch path, from the
// subnet manager's forwarding tables when the model has them, otherwise modelled the way
// OpenSM routes (min-hop with D-mod-K up-port spreading, ftree), or an adaptive idealisation.
//
// The engines (one file each):
//   MinHop   simulate/network/minhop_routing.cc   destination-based: every switch forwards toward the
//            destination LID d on a shortest path; of several shortest next hops (ports in
//            port-number order, parallel cables separate) it takes index d mod count (D-mod-K).
//   Ftree    simulate/network/ftree_routing.cc    OpenSM's fat-tree routing, replayed to forwarding
//            tables (see forwarding_tables.h, compute_ftree_tables) and walked like Lft.
//   Adaptive simulate/network/adaptive_routing.cc every flow split evenly at each hop over the shortest
//            next hops (per packet, idealised).
//   Lft      simulate/network/lft_routing.cc      walks given forwarding tables hop by hop.
// LIDs are the fabric's where present (see fabric_index.h for the rule when they are not).
//
// A Routing keeps a reference to the Cluster, which must outlive it. route() is const and
// safe to call from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

struct ForwardingTables;

enum class RoutingKind { Lft, MinHop, Ftree, Adaptive };
// "lft", "minhop" (also "dmodk"), "ftree", "adaptive"; throws InputError on anything else.
RoutingKind parse_routing_kind(const std::string& name);
const char* to_string(RoutingKind kind);

// One direction of one cable: the unit of contention.
struct DirectedLink {
  int fabric = 0;
  int link = 0;        // index into Cluster::fabrics[fabric].links (the cable)
  bool a_to_b = true;  // direction: from the link's end `a` to its end `b`
  friend bool operator==(const DirectedLink&, const DirectedLink&) = default;
};

// A set of directed links that each carry `share` of the flow. For deterministic routing it is
// the one path, source HCA → destination HCA in order, share 1.0. Adaptive routing returns
// each shortest path with its fraction while a flow has at most 64 of them; beyond that it
// merges: PathShares that each list links carrying that share of the flow, in hop order
// (then `links` is not a path, but the load on each link is still exact).
// In every case: load on a link = flow rate × Σ share over the PathShares that list it, and
// a link appears at most once in one PathShare.
struct PathShare {
  std::vector<DirectedLink> links;
  double share = 1.0;
};

// Many flows' routes in three flat arrays, so that a prediction routing thousands of flows
// allocates nothing per flow: flow i's PathShares are paths[flows[i].first ..
// flows[i].first + flows[i].count), path p's links are links[p.links.first .. + p.links.count).
// An unreachable flow has no paths; src == dst has one path with no links.
struct RouteSet {
  struct Range {
    int first = 0, count = 0;
  };
  struct Path {
    Range links;
    double share = 1.0;
  };
  std::vector<DirectedLink> links;
  std::vector<Path> paths;
  std::vector<Range> flows;

  void clear() {
    links.clear();
    paths.clear();
    flows.clear();
  }
  void add(const std::vector<PathShare>& route);  // appends one flow
  const DirectedLink* begin(const Path& p) const { return links.data() + p.links.first; }
  const DirectedLink* end(const Path& p) const { return links.data() + p.links.first + p.links.count; }
};

class Routing {
 public:
  virtual ~Routing() = default;
  // Paths from HCA src to HCA dst (indices into Cluster::hcas). Empty when unreachable (other
  // fabric, uncabled HCA, no table entry, a forwarding loop); one PathShare with no links when
  // src == dst (the traffic never leaves the HCA).
  virtual std::vector<PathShare> route(int src_hca, int dst_hca) const = 0;
  // The same into `out`, reusing its storage: a caller routing many flows allocates nothing
  // once the buffers have grown. The default calls route().
  virtual void route_into(int src_hca, int dst_hca, std::vector<PathShare>& out) const { out = route(src_hca, dst_hca); }
  // Many flows at once, into `out` (cleared first): flow i's paths are what route_into(pairs[i])
  // gives. The default routes them one by one; forwarding-table walks interleave them, so that
  // the table reads of several flows (each a cache miss on a large fabric) overlap.
  virtual void route_many(const std::pair<int, int>* pairs, size_t n, RouteSet& out) const;
  virtual RoutingKind kind() const = 0;
  // The engine that actually routes, as an admin would name it: kind()'s name, or what the
  // engine fell back to and why (OpenSM's ftree routes a tree it refuses with minhop).
  virtual std::string engine() const { return to_string(kind()); }
};

// Lft walks the forwarding tables the fabrics carry (Fabric::routes, from `discover fabric
// --routes`); when they carry none make_routing throws InputError saying so. make_lft_routing
// takes tables read from a dump instead.
std::unique_ptr<Routing> make_routing(const Cluster& cluster, RoutingKind kind);
std::unique_ptr<Routing> make_lft_routing(const Cluster& cluster, ForwardingTables tables);

}  // namespace slurmtopo
