#include "simulate/network/fabric_resources.h"

#include <doctest/doctest.h>

#include "simulate/network/fabric_model.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

TEST_CASE("fabric resources: two directions per cable, capacity from the link's rate") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 8}));
  const FabricResources r = make_fabric_resources(c);
  REQUIRE(r.resources.size() == 2 * c.fabrics[0].links.size());
  // NDR 4x: 4 × 100 Gb/s / 8 = 50 GB/s raw, × 0.98 = 49 GB/s.
  for (const auto& res : r.resources) CHECK(res.capacity == doctest::Approx(49.0));
  for (int i = 0; i < static_cast<int>(r.resources.size()); ++i) CHECK(r.index(r.link_of(i)) == i);

  const Cluster hdr = cluster_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 8, .speed = LinkSpeed::HDR}));
  CHECK(make_fabric_resources(hdr).resources[0].capacity == doctest::Approx(4 * 50.0 / 8 * 0.98));
  CHECK(make_fabric_resources(c, 1.0).resources[0].capacity == doctest::Approx(50.0));
}

TEST_CASE("fabric resources: readable names, HCAs as host and rail") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 8}));
  const FabricResources r = make_fabric_resources(c);
  const auto routing = make_routing(c, RoutingKind::MinHop);
  const auto path = routing->route(hca_of(c, "gpu001"), hca_of(c, "gpu005"))[0];
  CHECK(r.resources[r.index(path.links[0])].name == "gpu001 mlx5_0[1]->leaf001[1]");
  CHECK(r.resources[r.index(path.links[1])].name.rfind("leaf001[", 0) == 0);
  CHECK(r.resources[r.index(path.links[1])].name.find("]->spine0") != std::string::npos);
  CHECK(r.resources[r.index(path.links[3])].name == "leaf002[1]->gpu005 mlx5_0[1]");
}

TEST_CASE("fabric resources: a cable named alone gets the name and capacity of the full list") {
  for (const Cluster& c : {cluster_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 8})),
                           cluster_of(generate_rail_optimized({}))}) {
    const FabricResources all = make_fabric_resources(c);
    const FabricResources numbered = number_cables(c);
    CHECK(numbered.fabric_offset == all.fabric_offset);
    CHECK(numbered.resources.empty());
    const FabricModel model(c, RoutingKind::MinHop);
    REQUIRE(model.cable_count() == all.resources.size());
    for (int i = 0; i < static_cast<int>(all.resources.size()); ++i) {
      CHECK(cable_name(c, numbered, i) == all.resources[i].name);
      CHECK(model.cable_name(i) == all.resources[i].name);
      CHECK(model.capacity(i) == static_cast<float>(all.resources[i].capacity));
    }
  }
}

TEST_CASE("fabric resources: a routed flow's crossings, shares summed per link") {
  const Cluster c = cluster_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 8}));
  const FabricResources r = make_fabric_resources(c);
  Flow f;
  f.resources = {7};
  f.weights = {1.0};
  const DirectedLink a{0, 3, true}, b{0, 5, false};
  add_path_resources(r, {PathShare{{a, b}, 0.25}, PathShare{{a}, 0.5}}, f, 100);
  REQUIRE(f.resources.size() == 3);
  CHECK(f.resources == std::vector<int>{7, 100 + r.index(a), 100 + r.index(b)});
  CHECK(f.weights == std::vector<double>{1.0, 0.75, 0.25});
}
