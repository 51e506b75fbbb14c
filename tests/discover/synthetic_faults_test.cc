// Faults the generator injects that the fault tests of synthetic_fabric_test.cc do not cover:
// crossed rails, and the options' spelling.
#include "discover/synthetic_faults.h"

#include <doctest/doctest.h>

#include <stdexcept>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

namespace {
// (switch description, port) an HCA's cable reaches.
std::pair<std::string, int> attachment(const Fabric& f, const std::string& hca) {
  for (const auto& n : f.nodes)
    if (n.description == hca)
      for (const auto& l : f.links)
        if (l.a.guid == n.guid || l.b.guid == n.guid) {
          const LinkEnd& far = l.a.guid == n.guid ? l.b : l.a;
          return {f.find(far.guid)->description, far.port};
        }
  return {"", 0};
}

RailOptimizedSpec small() {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  return spec;
}
}  // namespace

TEST_CASE("faults: crossed rails swap the two HCAs' switch ends") {
  Fabric f = generate_rail_optimized(small());
  const auto before1 = attachment(f, "dgx002 mlx5_1"), before2 = attachment(f, "dgx002 mlx5_2");
  apply_faults(f, parse_faults({}, {}, {"dgx002,1,2"}));
  CHECK(attachment(f, "dgx002 mlx5_1") == before2);
  CHECK(attachment(f, "dgx002 mlx5_2") == before1);
  CHECK(before1.first == "MF0;su1-rail1:MQM9700/U1");
  // Rails 0 and 1 when none are given.
  Fabric g = generate_rail_optimized(small());
  const auto r0 = attachment(g, "dgx005 mlx5_0");
  apply_faults(g, parse_faults({}, {}, {"dgx005"}));
  CHECK(attachment(g, "dgx005 mlx5_1") == r0);
  Fabric h = generate_rail_optimized(small());
  CHECK_THROWS_WITH_AS(apply_faults(h, parse_faults({}, {}, {"nosuch"})), "--cross-rails: no switch or host named 'nosuch mlx5_0'",
                       InputError);
}

TEST_CASE("faults: --cross-rails spelled wrong names the option") {
  for (const char* bad : {"dgx001,1", "dgx001,1,1", "dgx001,a,b", ",1,2", "dgx001,-1,2"}) {
    CAPTURE(bad);
    try {
      parse_faults({}, {}, {bad});
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.file() == "--cross-rails");
    }
  }
}

TEST_CASE("rail planes: one fabric per plane, the same hosts on each, rails divided among them") {
  const RailOptimizedSpec spec = small();
  const Fabric whole = generate_rail_optimized(spec);
  const auto planes = split_rail_planes(whole, spec, 2);
  REQUIRE(planes.size() == 2);
  size_t nodes = 0, links = 0;
  for (const auto& p : planes) nodes += p.nodes.size(), links += p.links.size();
  CHECK(nodes == whole.nodes.size());
  CHECK(links == whole.links.size());
  CHECK(attachment(planes[0], "dgx001 mlx5_1").first == "MF0;su1-rail1:MQM9700/U1");
  CHECK(attachment(planes[1], "dgx001 mlx5_2").first == "MF0;su1-rail2:MQM9700/U1");
  CHECK(attachment(planes[0], "dgx001 mlx5_2").first.empty());
  CHECK(planes[1].name == whole.name + "-plane2");
  RailOptimizedSpec storage = spec;
  storage.storage_switch = true;
  CHECK_THROWS_WITH_AS(split_rail_planes(generate_rail_optimized(storage), storage, 2),
                       "--planes: a storage tier belongs to no rail plane (leave out --storage)", InputError);
}
