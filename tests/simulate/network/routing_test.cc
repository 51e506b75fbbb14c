#include "simulate/network/routing.h"

#include <doctest/doctest.h>

#include <thread>

#include "base/input_error.h"
#include "simulate/network/forwarding_tables.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

TEST_CASE("routing kinds parse by name and print back") {
  for (RoutingKind k : {RoutingKind::Lft, RoutingKind::MinHop, RoutingKind::Ftree, RoutingKind::Adaptive})
    CHECK(parse_routing_kind(to_string(k)) == k);
  CHECK(parse_routing_kind("DMODK") == RoutingKind::MinHop);
  CHECK_THROWS_AS(parse_routing_kind("updn"), InputError);
}

TEST_CASE("lft routing without forwarding tables is an input error that says what to do") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  try {
    make_routing(c, RoutingKind::Lft);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("forwarding tables") != std::string::npos);
    CHECK(std::string(e.what()).find("minhop") != std::string::npos);
  }
}

TEST_CASE("rail-optimized: a rail-k flow between scalable units stays on rail k's spine plane") {
  // 4 SUs × 4 DGX × 4 rails, radix 8: SU s has leaf su<s>-rail<r> per rail; rail r's leaves
  // meet only on rail<r>-spineNN (2 per rail). dgx001-004 are SU1, dgx005-008 SU2.
  const Cluster c = cluster_of(generate_rail_optimized(
      {.scalable_units = 4, .hosts_per_su = 4, .rails = 4, .radix = 8}));
  for (RoutingKind kind : {RoutingKind::MinHop, RoutingKind::Ftree, RoutingKind::Adaptive}) {
    CAPTURE(to_string(kind));
    const auto routing = make_routing(c, kind);
    for (int rail = 0; rail < 4; ++rail)
      for (const char* dst : {"dgx005", "dgx016"}) {
        const auto paths = routing->route(hca_of(c, "dgx001", rail), hca_of(c, dst, rail));
        REQUIRE_FALSE(paths.empty());
        for (const auto& p : paths) {
          const auto nodes = nodes_of(c, p);
          REQUIRE(nodes.size() == 5);  // HCA, SU leaf, spine, SU leaf, HCA
          const std::string r = "rail" + std::to_string(rail);
          CHECK(nodes[1] == "su1-" + r);
          CHECK(nodes[2].rfind(r + "-spine", 0) == 0);
          CHECK(nodes[3] == std::string(dst == std::string("dgx005") ? "su2-" : "su4-") + r);
        }
      }
    // Different rails are different fabrics as far as cables go: no path between them.
    CHECK(routing->route(hca_of(c, "dgx001", 0), hca_of(c, "dgx005", 1)).empty());
  }
}

TEST_CASE("routing: every kind gives shortest paths on a 3-level tree") {
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 40}));
  const auto minhop = make_routing(c, RoutingKind::MinHop);
  for (RoutingKind kind : {RoutingKind::Ftree, RoutingKind::Adaptive}) {
    const auto routing = make_routing(c, kind);
    for (size_t s = 0; s < c.hosts.size(); s += 3)
      for (size_t d = 0; d < c.hosts.size(); d += 2) {
        const int src = c.hosts[s].hcas[0], dst = c.hosts[d].hcas[0];
        const size_t hops = minhop->route(src, dst).at(0).links.size();
        for (const auto& p : routing->route(src, dst))
          if (kind != RoutingKind::Adaptive || c.hosts.size() < 64) CHECK(p.links.size() == hops);
      }
  }
}

TEST_CASE("routing: route() from two threads at once fills the caches once and agrees") {
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8}));  // 128 hosts
  const int n = static_cast<int>(c.hosts.size());
  for (RoutingKind kind : {RoutingKind::MinHop, RoutingKind::Adaptive, RoutingKind::Ftree}) {
    const auto shared = make_routing(c, kind);  // fresh: no distances cached yet
    std::vector<std::vector<PathShare>> a(n * 4), b(n * 4);
    auto run = [&](std::vector<std::vector<PathShare>>& out) {
      for (int i = 0; i < n * 4; ++i) out[i] = shared->route(c.hosts[i % n].hcas[0], c.hosts[(i * 7 + 3) % n].hcas[0]);
    };
    std::thread t1(run, std::ref(a)), t2(run, std::ref(b));
    t1.join();
    t2.join();
    const auto serial = make_routing(c, kind);
    for (int i = 0; i < n * 4; ++i) {
      const auto expected = serial->route(c.hosts[i % n].hcas[0], c.hosts[(i * 7 + 3) % n].hcas[0]);
      REQUIRE(a[i].size() == expected.size());
      REQUIRE(b[i].size() == expected.size());
      for (size_t k = 0; k < expected.size(); ++k) {
        CHECK(a[i][k].links == expected[k].links);
        CHECK(b[i][k].links == expected[k].links);
      }
    }
  }
}

TEST_CASE("lft routing walks the tables the fabric carries (discover fabric --routes)") {
  // The tables OpenSM's minhop would write, put into the model as a live sweep would.
  const Cluster plain = cluster_of(generate_fattree({.levels = 2, .radix = 8}));
  Fabric fabric = plain.fabrics.front();
  fabric.routes = compute_minhop_tables(plain);
  const Cluster carried = cluster_of(fabric);
  const auto from_model = make_routing(carried, RoutingKind::Lft);
  const auto from_dump = make_lft_routing(plain, compute_minhop_tables(plain));
  CHECK(from_model->kind() == RoutingKind::Lft);
  const int last = static_cast<int>(carried.hcas.size()) - 1;
  for (int dst : {1, 5, last}) {
    const auto a = from_model->route(0, dst);
    const auto b = from_dump->route(0, dst);
    REQUIRE(a.size() == 1);
    REQUIRE(b.size() == 1);
    CHECK(a.front().links == b.front().links);
    CHECK(a.front().links.size() >= 2);
  }
}
