#include <doctest/doctest.h>

#include <map>

#include "simulate/network/routing.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {

// generate_fattree radix 8, 2 levels: 4 host ports (1-4) and 4 uplinks (ports 5-8) per leaf,
// uplink j to spine j+1; 8 leaves, 32 hosts, gpu001-gpu004 on leaf001, gpu005-gpu008 on leaf002.
const Cluster& radix8() {
  static const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  return c;
}

// NDR 4x: 4 lanes × 100 Gb/s = 400 Gb/s = 50 GB/s per direction, × 0.98 cable efficiency.
constexpr double kNdr4x = 4 * 100.0 / 8 * kCableEfficiency;

uint16_t lid_of(const Cluster& c, int hca) { return c.fabrics[0].find(c.hcas[hca].guid)->lid; }

}  // namespace

TEST_CASE("minhop: same-leaf pairs stay in the leaf, cross-leaf pairs go leaf-spine-leaf") {
  const Cluster& c = radix8();
  const auto routing = make_routing(c, RoutingKind::MinHop);

  const auto same = routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu002"));
  REQUIRE(same.size() == 1);
  CHECK(same[0].share == 1.0);
  CHECK(same[0].links.size() == 2);  // up HCA→leaf, leaf→HCA
  CHECK(nodes_of(c, same[0]) == std::vector<std::string>{"gpu001 mlx5_0", "leaf001", "gpu002 mlx5_0"});

  const auto cross = routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu005"));
  REQUIRE(cross.size() == 1);
  REQUIRE(cross[0].links.size() == 4);  // HCA→leaf, leaf→spine, spine→leaf, leaf→HCA
  const auto nodes = nodes_of(c, cross[0]);
  CHECK(nodes[0] == "gpu001 mlx5_0");
  CHECK(nodes[1] == "leaf001");
  CHECK(nodes[2].rfind("spine", 0) == 0);
  CHECK(nodes[3] == "leaf002");
  CHECK(nodes[4] == "gpu005 mlx5_0");

  CHECK(routing->route(hca_of(c, "gpu003"), hca_of(c, "gpu003")).at(0).links.empty());
  CHECK(routing->kind() == RoutingKind::MinHop);
}

TEST_CASE("minhop: D-mod-K takes uplink (destination LID mod uplinks) on every leaf") {
  const Cluster& c = radix8();
  const auto routing = make_routing(c, RoutingKind::MinHop);
  // Four equal uplinks on ports 5..8: destination LID d leaves any leaf on port 5 + d mod 4,
  // whoever the source is.
  for (const char* src : {"gpu001", "gpu002", "gpu013"})
    for (const char* dst : {"gpu005", "gpu006", "gpu007", "gpu008", "gpu031"}) {
      const auto p = routing->route(hca_of(c, src), hca_of(c, dst));
      REQUIRE(p.size() == 1);
      CHECK(from_end(c, p[0].links[1]).port == 5 + lid_of(c, hca_of(c, dst)) % 4);
    }
}

TEST_CASE("minhop: two flows D-mod-K puts on one uplink share it, on different uplinks both run full") {
  const Cluster& c = radix8();
  const auto routing = make_routing(c, RoutingKind::MinHop);
  // Destinations on leaf002 and leaf003 whose LIDs agree mod 4 leave leaf001 on the same
  // uplink; look them up from the fabric's LIDs rather than assume the numbering.
  int d1 = -1, d2 = -1, d3 = -1;
  for (int a = 5; a <= 8 && d1 < 0; ++a)
    for (int b = 9; b <= 12 && d1 < 0; ++b) {
      const int ha = hca_of(c, host("gpu", a)), hb = hca_of(c, host("gpu", b));
      if (lid_of(c, ha) % 4 == lid_of(c, hb) % 4) d1 = ha, d2 = hb;
    }
  REQUIRE(d1 >= 0);
  for (int b = 9; b <= 12 && d3 < 0; ++b) {
    const int hb = hca_of(c, host("gpu", b));
    if (lid_of(c, hb) % 4 != lid_of(c, d1) % 4) d3 = hb;
  }
  REQUIRE(d3 >= 0);
  const int s1 = hca_of(c, "gpu001"), s2 = hca_of(c, "gpu002");

  SUBCASE("same uplink: half of it each") {
    CHECK(routing->route(s1, d1)[0].links[1] == routing->route(s2, d2)[0].links[1]);
    // Each flow: its own host links and spine→leaf downlink (different leaves), but the one
    // leaf001 uplink for both: 49 GB/s / 2.
    const Shared s = share(c, *routing, {{s1, d1}, {s2, d2}});
    CHECK(s.sharing.rate[0] == doctest::Approx(kNdr4x / 2));
    CHECK(s.sharing.rate[1] == doctest::Approx(kNdr4x / 2));
    const int uplink = s.fabric.index(routing->route(s1, d1)[0].links[1]);
    CHECK(s.sharing.bottleneck[0] == uplink);
    CHECK(s.fabric.resources[uplink].name.rfind("leaf001[", 0) == 0);
  }
  SUBCASE("different uplinks: full rate each") {
    CHECK_FALSE(routing->route(s1, d1)[0].links[1] == routing->route(s2, d3)[0].links[1]);
    const Shared s = share(c, *routing, {{s1, d1}, {s2, d3}});
    CHECK(s.sharing.rate[0] == doctest::Approx(kNdr4x));
    CHECK(s.sharing.rate[1] == doctest::Approx(kNdr4x));
  }
}

TEST_CASE("minhop: a 2:1 oversubscribed leaf sending to another leaf gets its uplinks' worth") {
  // Radix 8 at 2:1: round(8·2/3) = 5 host ports and 3 uplinks per leaf, so 3 spines;
  // gpu001-005 on leaf001, gpu006-010 on leaf002.
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .oversubscription = 2.0}));
  const auto routing = make_routing(c, RoutingKind::MinHop);
  std::vector<std::pair<int, int>> flows;
  for (int i = 0; i < 5; ++i)
    flows.push_back({hca_of(c, host("gpu", 1 + i)), hca_of(c, host("gpu", 6 + i))});
  const Shared s = share(c, *routing, flows);

  // D-mod-K: flow i leaves on uplink (LID mod 3); the flows sharing an uplink split its
  // 49 GB/s (they meet again on the same spine's downlink to leaf002, no tighter).
  std::map<int, int> per_uplink;
  for (auto [src, dst] : flows) ++per_uplink[lid_of(c, dst) % 3];
  double total = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    CHECK(s.sharing.rate[i] == doctest::Approx(kNdr4x / per_uplink[lid_of(c, flows[i].second) % 3]));
    total += s.sharing.rate[i];
  }
  // Five consecutive LIDs cover all three residues, so all 3 uplinks are full: together the
  // five flows get uplink capacity × uplinks = 3 × 49 = 147 GB/s, on average 147/5 = 29.4
  // each, although no single flow gets that mean under static routing.
  CHECK(per_uplink.size() == 3);
  CHECK(total == doctest::Approx(3 * kNdr4x));
  CHECK(total / 5 == doctest::Approx(kNdr4x * 3 / 5));
}

TEST_CASE("minhop: a leaf cut off from the spines is unreachable from the others") {
  Fabric f = generate_fattree({.levels = 2, .radix = 8, .hosts = 8});  // leaf001, leaf002
  apply_faults(f, {.remove_cables = {{"leaf002", "spine01"}, {"leaf002", "spine02"},
                                     {"leaf002", "spine03"}, {"leaf002", "spine04"}}});
  const Cluster c = cluster_of(std::move(f));
  const auto routing = make_routing(c, RoutingKind::MinHop);
  CHECK(routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu005")).empty());
  CHECK(routing->route(hca_of(c, "gpu005"), hca_of(c, "gpu006")).size() == 1);  // within leaf002
}

TEST_CASE("minhop: routing many flows at once on an irregular fabric gives each the path route() gives") {
  // A third of the switch cables gone at random: next hops that are not consecutive ports
  // (the memo's slow path), unequal path lengths, unreachable leaves. The batch walk must
  // give every pair exactly route()'s path, whichever of the two looks at a switch first.
  const Cluster c = cluster_of(thinned(generate_fattree({.levels = 3, .radix = 8, .hosts = 64}), 5, true));
  for (bool batch_first : {true, false}) {
    const auto routing = make_routing(c, RoutingKind::MinHop);
    std::vector<std::pair<int, int>> pairs;
    for (int s = 0; s < static_cast<int>(c.hcas.size()); ++s)
      for (int d = 0; d < static_cast<int>(c.hcas.size()); d += 1 + s % 3) pairs.push_back({s, d});
    std::vector<std::vector<PathShare>> single;
    if (!batch_first)
      for (const auto& [s, d] : pairs) single.push_back(routing->route(s, d));
    RouteSet many;
    routing->route_many(pairs.data(), pairs.size(), many);
    if (batch_first)
      for (const auto& [s, d] : pairs) single.push_back(routing->route(s, d));
    REQUIRE(many.flows.size() == pairs.size());
    int unreachable = 0, longer = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const RouteSet::Range r = many.flows[i];
      REQUIRE(r.count == static_cast<int>(single[i].size()));
      if (r.count == 0) {
        ++unreachable;
        continue;
      }
      const RouteSet::Path& p = many.paths[r.first];
      CHECK(std::vector<DirectedLink>(many.begin(p), many.end(p)) == single[i][0].links);
      longer += p.links.count > 6;
    }
    CHECK(unreachable > 0);
    CHECK(longer > 0);  // detours past the missing cables
  }
}
