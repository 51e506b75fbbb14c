#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "simulate/network/routing.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {
constexpr double kNdr4x = 4 * 100.0 / 8 * kCableEfficiency;  // 49 GB/s per cable direction

// Per-link share of one routed flow: Σ share over the PathShares listing the link.
std::map<std::tuple<int, int, bool>, double> link_shares(const std::vector<PathShare>& paths) {
  std::map<std::tuple<int, int, bool>, double> out;
  for (const auto& p : paths)
    for (const auto& d : p.links) out[{d.fabric, d.link, d.a_to_b}] += p.share;
  return out;
}
}  // namespace

TEST_CASE("adaptive: a cross-leaf flow spreads evenly over every uplink") {
  // Radix 8, 2 levels: 4 uplinks per leaf, one to each spine: 4 shortest paths, 1/4 each.
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  const auto routing = make_routing(c, RoutingKind::Adaptive);
  const auto paths = routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu005"));
  REQUIRE(paths.size() == 4);
  std::set<std::string> spines;
  for (const auto& p : paths) {
    CHECK(p.share == doctest::Approx(0.25));
    const auto nodes = nodes_of(c, p);
    REQUIRE(nodes.size() == 5);
    CHECK(nodes[1] == "leaf001");
    CHECK(nodes[3] == "leaf002");
    spines.insert(nodes[2]);
  }
  CHECK(spines.size() == 4);
  // The host links carry the whole flow.
  const auto shares = link_shares(paths);
  const DirectedLink up = paths[0].links.front();
  CHECK(shares.at({up.fabric, up.link, up.a_to_b}) == doctest::Approx(1.0));
  // Same leaf: one path.
  CHECK(routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu002")).size() == 1);
}

TEST_CASE("adaptive: a 2:1 oversubscribed leaf's flows share its uplinks evenly") {
  // Radix 8 at 2:1: 5 hosts and 3 uplinks per leaf. Five flows leaf001 → leaf002, each split
  // 1/3 per uplink: an uplink carries 5 · r/3 ≤ 49, so r = min(host link 49,
  // total uplink 3 · 49 / 5 flows) = 29.4 GB/s for every flow.
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .oversubscription = 2.0}));
  const auto routing = make_routing(c, RoutingKind::Adaptive);
  std::vector<std::pair<int, int>> flows;
  for (int i = 0; i < 5; ++i) flows.push_back({hca_of(c, host("gpu", 1 + i)), hca_of(c, host("gpu", 6 + i))});
  const Shared s = share(c, *routing, flows);
  const double expected = std::min(kNdr4x, 3 * kNdr4x / 5);
  for (size_t i = 0; i < flows.size(); ++i) CHECK(s.sharing.rate[i] == doctest::Approx(expected));
}

TEST_CASE("adaptive: many paths are merged into per-share link groups with exact loads") {
  // Full 3-level trees: a leaf has k/2 uplinks to its pod's k/2 aggregation switches, each of
  // those k/2 uplinks to k/2 different cores, and each core one cable down to the destination
  // pod's aggregation switch: (k/2)² paths between pods. k = 8: 16 ≤ 64, returned as paths;
  // k = 20: 100 > 64, merged into groups of links with equal shares.
  for (int radix : {8, 20}) {
    CAPTURE(radix);
    const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = radix}));
    const auto routing = make_routing(c, RoutingKind::Adaptive);
    const int src = c.hosts.front().hcas[0];
    const int dst = c.hosts.back().hcas[0];  // last host: last pod
    const auto paths = routing->route(src, dst);
    const int half = radix / 2;
    // Per link: the 2 host links carry 1; k/2 leaf→agg and k/2 agg→leaf carry 1/(k/2) each;
    // (k/2)² agg→core and as many core→agg carry 1/(k/2)² each — whatever the form.
    std::vector<int> count(3, 0);  // links carrying 1, 1/(k/2), 1/(k/2)²
    for (const auto& [link, share] : link_shares(paths))
      for (int i = 0; i < 3; ++i)
        if (share == doctest::Approx(1.0 / std::pow(half, i)).epsilon(1e-9)) ++count[i];
    CHECK(count == std::vector<int>{2, 2 * half, 2 * half * half});
    CHECK(link_shares(paths).size() == static_cast<size_t>(2 + 2 * half + 2 * half * half));
    double total = 0;
    for (const auto& p : paths) total += p.share * static_cast<double>(p.links.size());
    CHECK(total == doctest::Approx(6.0));  // six hops, each carrying the whole flow in sum
    if (half * half <= 64) {
      CHECK(paths.size() == static_cast<size_t>(half * half));
    } else {  // merged: far fewer entries than paths, one per stretch of equal shares
      CHECK(paths.size() <= 6u);
    }
  }
}
