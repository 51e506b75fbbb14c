#include <doctest/doctest.h>

#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {
void check_same_paths(const Cluster& c, const Routing& a, const Routing& b) {
  for (int s = 0; s < static_cast<int>(c.hcas.size()); ++s)
    for (int d = 0; d < static_cast<int>(c.hcas.size()); ++d) {
      const auto pa = a.route(s, d), pb = b.route(s, d);
      REQUIRE(pa.size() == pb.size());
      for (size_t i = 0; i < pa.size(); ++i) CHECK(pa[i].links == pb[i].links);
    }
}
}  // namespace

TEST_CASE("lft: walking the tables min-hop would write gives exactly the min-hop paths") {
  for (const Fabric& f : {generate_fattree({.levels = 2, .radix = 8}),
                          generate_fattree({.levels = 3, .radix = 8, .hosts = 48}),
                          generate_fattree({.levels = 2, .radix = 8, .cables_per_pair = 2}),
                          generate_rail_optimized({.scalable_units = 2, .hosts_per_su = 4, .rails = 2, .radix = 8})}) {
    CAPTURE(f.name);
    const Cluster c = cluster_of(f);
    const ForwardingTables tables = compute_minhop_tables(c);
    CHECK(tables.by_switch.size() == c.switches.size());
    const auto lft = make_lft_routing(c, tables);
    CHECK(lft->kind() == RoutingKind::Lft);
    check_same_paths(c, *lft, *make_routing(c, RoutingKind::MinHop));
  }
}

TEST_CASE("lft: min-hop tables deliver switch LIDs on port 0 and CA LIDs on the CA's port") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  const ForwardingTables t = compute_minhop_tables(c);
  for (const auto& s : c.switches) {
    const FabricNode* n = c.fabrics[0].find(s.guid);
    CHECK(t.by_switch.at(s.guid).at(n->lid) == 0);
  }
  // gpu001 hangs off leaf001 port 1.
  const auto& leaf001 = *std::find_if(c.switches.begin(), c.switches.end(),
                                      [](const SwitchInfo& s) { return s.name == "leaf001"; });
  const FabricNode* gpu001 = c.fabrics[0].find(c.hcas[hca_of(c, "gpu001")].guid);
  CHECK(t.by_switch.at(leaf001.guid).at(gpu001->lid) == 1);
}

TEST_CASE("lft: the ftree engine's tables walked as LFTs are the ftree paths") {
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 64}));
  check_same_paths(c, *make_lft_routing(c, compute_ftree_tables(c)), *make_routing(c, RoutingKind::Ftree));
}

TEST_CASE("lft: missing entries, loops and unknown switches leave the destination unreachable") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  const int src = hca_of(c, "gpu001"), dst = hca_of(c, "gpu005");
  const uint16_t lid = c.fabrics[0].find(c.hcas[dst].guid)->lid;
  const auto& leaf001 = *std::find_if(c.switches.begin(), c.switches.end(),
                                      [](const SwitchInfo& s) { return s.name == "leaf001"; });
  ForwardingTables t = compute_minhop_tables(c);
  REQUIRE(make_lft_routing(c, t)->route(src, dst).size() == 1);

  SUBCASE("no entry") {
    t.by_switch[leaf001.guid][lid] = ForwardingTables::kNoPort;
    CHECK(make_lft_routing(c, t)->route(src, dst).empty());
  }
  SUBCASE("table too short") {
    t.by_switch[leaf001.guid].resize(lid);
    CHECK(make_lft_routing(c, t)->route(src, dst).empty());
  }
  SUBCASE("a loop: the spine sends it back down to the leaf it came from") {
    const auto path = make_lft_routing(c, t)->route(src, dst)[0];
    const uint64_t spine = to_end(c, path.links[1]).guid;
    t.by_switch[spine][lid] = static_cast<uint8_t>(to_end(c, path.links[1]).port);  // back to leaf001
    CHECK(make_lft_routing(c, t)->route(src, dst).empty());
  }
  SUBCASE("an uncabled port") {
    t.by_switch[leaf001.guid][lid] = 40;
    CHECK(make_lft_routing(c, t)->route(src, dst).empty());
  }
  SUBCASE("a switch missing from the dump") {
    t.by_switch.erase(leaf001.guid);
    CHECK(make_lft_routing(c, t)->route(src, dst).empty());
  }
}

TEST_CASE("lft: routing many flows at once gives each its own route, reachable or not") {
  // The batch walk interleaves flows of different lengths and outcomes: every pair (itself,
  // across the tree, into a loop, off a missing entry) in one call must match route_into.
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 48}));
  ForwardingTables t = compute_minhop_tables(c);
  const int src = hca_of(c, "gpu001"), dst = hca_of(c, "gpu040");
  const uint16_t lid = c.fabrics[0].find(c.hcas[dst].guid)->lid;
  const auto path = make_lft_routing(c, t)->route(src, dst)[0];
  REQUIRE(path.links.size() >= 4);
  t.by_switch[to_end(c, path.links[2]).guid][lid] = static_cast<uint8_t>(to_end(c, path.links[2]).port);  // a loop
  t.by_switch[c.switches.back().guid].assign(4, ForwardingTables::kNoPort);                               // no entries
  for (const auto& routing : {make_lft_routing(c, t), make_routing(c, RoutingKind::Ftree), make_routing(c, RoutingKind::MinHop)}) {
    std::vector<std::pair<int, int>> pairs;
    for (int s = 0; s < static_cast<int>(c.hcas.size()); s += 3)
      for (int d = 0; d < static_cast<int>(c.hcas.size()); ++d) pairs.push_back({s, d});
    RouteSet many;
    many.add({path});  // a stale batch is cleared
    routing->route_many(pairs.data(), pairs.size(), many);
    REQUIRE(many.flows.size() == pairs.size());
    int unreachable = 0;
    std::vector<PathShare> one;
    for (size_t i = 0; i < pairs.size(); ++i) {
      routing->route_into(pairs[i].first, pairs[i].second, one);
      const RouteSet::Range r = many.flows[i];
      REQUIRE(r.count == static_cast<int>(one.size()));
      for (int k = 0; k < r.count; ++k) {
        const RouteSet::Path& p = many.paths[r.first + k];
        CHECK(std::vector<DirectedLink>(many.begin(p), many.end(p)) == one[k].links);
        CHECK(p.share == one[k].share);
      }
      unreachable += one.empty();
    }
    if (routing->kind() == RoutingKind::Lft) CHECK(unreachable > 0);
  }
}
