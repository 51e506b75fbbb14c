#include <doctest/doctest.h>

#include <map>

#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {
constexpr double kNdr4x = 4 * 100.0 / 8 * kCableEfficiency;  // 49 GB/s per cable direction

// Host i → host i + hosts_per_leaf (wrapping): every flow crosses from one leaf to the next.
std::vector<std::pair<int, int>> shift(const Cluster& c, int by) {
  std::vector<std::pair<int, int>> flows;
  const int n = static_cast<int>(c.hosts.size());
  for (int i = 0; i < n; ++i) flows.push_back({c.hosts[i].hcas[0], c.hosts[(i + by) % n].hcas[0]});
  return flows;
}

// Re-number the HCAs' LIDs so that host i gets base + 4·(i mod 8) + ⌊i/8⌋: the four hosts of
// any leaf then have LIDs that agree mod 4 (the uplink count).
Fabric transposed_lids(Fabric f) {
  uint32_t base = 0xffff;
  for (const auto& n : f.nodes)
    if (n.kind == NodeKind::Ca) base = std::min<uint32_t>(base, n.lid);
  std::map<uint64_t, uint16_t> lid;
  int i = 0;
  for (auto& n : f.nodes)  // HCAs sort by GUID, which follows the host number
    if (n.kind == NodeKind::Ca) {
      n.lid = static_cast<uint16_t>(base + 4 * (i % 8) + i / 8);
      lid[n.guid] = n.lid;
      ++i;
    }
  for (auto& l : f.links) {
    if (lid.count(l.a.guid)) l.a.lid = lid[l.a.guid];
    if (lid.count(l.b.guid)) l.b.lid = lid[l.b.guid];
  }
  return f;
}
}  // namespace

TEST_CASE("ftree: a shift permutation on a full-bisection tree runs every flow at full rate") {
  // Radix 8, 2 levels, 1:1: 4 hosts and 4 uplinks per leaf. Ftree sends destination i of
  // every leaf through uplink i (and spine i), so the 4 flows from one leaf to the next use
  // 4 different uplinks and 4 different downlinks: nothing is shared, 49 GB/s each.
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  const auto routing = make_routing(c, RoutingKind::Ftree);
  const auto flows = shift(c, 4);
  const Shared s = share(c, *routing, flows);
  for (size_t i = 0; i < flows.size(); ++i) CHECK(s.sharing.rate[i] == doctest::Approx(kNdr4x));
  for (size_t r = 0; r < s.fabric.resources.size(); ++r)
    CHECK(s.sharing.load[r] <= kNdr4x * (1 + 1e-9));
  CHECK(routing->kind() == RoutingKind::Ftree);
}

TEST_CASE("ftree: spreading does not depend on LIDs, D-mod-K's does") {
  // With host i's LID = base + 4(i mod 8) + ⌊i/8⌋, gpu005-gpu008 (i = 4..7) have LIDs
  // base+16, +20, +24, +28: all the same mod 4, so D-mod-K sends all four flows leaf001 →
  // leaf002 up one uplink: 49/4 = 12.25 GB/s each. Ftree spreads by port order, not LID, and
  // keeps every flow at 49.
  const Cluster c = cluster_of(transposed_lids(generate_fattree({.levels = 2, .radix = 8})));
  const auto flows = shift(c, 4);
  const auto minhop = make_routing(c, RoutingKind::MinHop);
  const auto ftree = make_routing(c, RoutingKind::Ftree);
  const Shared m = share(c, *minhop, flows);
  const Shared f = share(c, *ftree, flows);
  for (int i = 0; i < 4; ++i) CHECK(m.sharing.rate[i] == doctest::Approx(kNdr4x / 4));
  for (size_t i = 0; i < flows.size(); ++i) CHECK(f.sharing.rate[i] == doctest::Approx(kNdr4x));
}

TEST_CASE("ftree: destinations go round-robin over each leaf's uplinks, in port order") {
  // 2:1 radix 8: 5 hosts, 3 uplinks (ports 6-8) per leaf. Host j of a leaf (port j+1) is
  // reached through uplink j mod 3 from every other leaf, and every source of a leaf takes
  // the same uplink to it.
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .oversubscription = 2.0}));
  const auto routing = make_routing(c, RoutingKind::Ftree);
  for (int j = 0; j < 5; ++j) {
    const int dst = hca_of(c, host("gpu", 6 + j));  // leaf002
    for (const char* src : {"gpu001", "gpu003", "gpu012"}) {
      const auto p = routing->route(hca_of(c, src), dst);
      REQUIRE(p.size() == 1);
      REQUIRE(p[0].links.size() == 4);
      CHECK(from_end(c, p[0].links[1]).port == 6 + j % 3);
    }
  }
}

TEST_CASE("ftree: 3-level tree routes up to one top switch per destination, then down") {
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8}));  // 128 hosts
  const auto routing = make_routing(c, RoutingKind::Ftree);
  const auto minhop = make_routing(c, RoutingKind::MinHop);
  for (int s = 0; s < static_cast<int>(c.hosts.size()); s += 7)
    for (int d = 0; d < static_cast<int>(c.hosts.size()); d += 5) {
      const auto p = routing->route(c.hosts[s].hcas[0], c.hosts[d].hcas[0]);
      REQUIRE(p.size() == 1);
      // Shortest: ftree takes as many hops as min-hop does.
      CHECK(p[0].links.size() == minhop->route(c.hosts[s].hcas[0], c.hosts[d].hcas[0])[0].links.size());
    }
  // All sources reach one destination through the same core switch.
  const int dst = c.hosts[100].hcas[0];
  std::set<std::string> cores;
  for (int s = 0; s < 32; ++s) {  // pods 1 and 2
    const auto nodes = nodes_of(c, routing->route(c.hosts[s].hcas[0], dst)[0]);
    if (nodes.size() == 7) cores.insert(nodes[3]);
  }
  CHECK(cores.size() == 1);
}

TEST_CASE("ftree: a tree OpenSM would not accept is routed min-hop, as OpenSM falls back") {
  // 40 hosts on a radix-8 3-level tree: pods of 4 leaves, the third pod has only 2, so its
  // aggregation switches have 2 down groups where the others have 4. OpenSM 3.3.23 logs
  // "ERR AB0A: Different number of downward port groups" and "ERR AB0D: Fabric topology
  // hasn't been identified as FatTree", then routes with minhop (seen under ibsim).
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 40}));
  CHECK(compute_ftree_tables(c) == compute_minhop_tables(c));
  const auto ftree = make_routing(c, RoutingKind::Ftree);
  const auto minhop = make_routing(c, RoutingKind::MinHop);
  for (int s = 0; s < 40; s += 3)
    for (int d = 0; d < 40; ++d)
      CHECK(ftree->route(c.hosts[s].hcas[0], c.hosts[d].hcas[0])[0].links ==
            minhop->route(c.hosts[s].hcas[0], c.hosts[d].hcas[0])[0].links);
  // A full pod count is a tree again: not the min-hop tables.
  const Cluster full = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 32}));
  CHECK_FALSE(compute_ftree_tables(full) == compute_minhop_tables(full));
  // The engine says which it is, and why OpenSM refused the first: a what-if that drains a
  // switch must not present min-hop's figures as ftree's.
  CHECK(make_routing(full, RoutingKind::Ftree)->engine() == "ftree");
  const std::string fell = ftree->engine();
  CHECK(fell.rfind("minhop, as OpenSM falls back to", 0) == 0);
  CHECK(fell.find("level-2 switches differ") != std::string::npos);
  CHECK(fell.find("down port groups") != std::string::npos);
  CHECK(minhop->engine() == "minhop");
}
