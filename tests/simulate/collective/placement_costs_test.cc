// Costing many placements: the same busbw predict() gives, each placement once, the same
// answer on one thread or two.
#include "simulate/collective/placement_costs.h"

#include <doctest/doctest.h>

#include <cmath>

#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("placement costs: predict()'s busbw, each distinct placement predicted once") {
  const Cluster cluster = oversubscribed_tree();
  const FabricModel fabric(cluster, RoutingKind::MinHop);
  const std::vector<std::string> a{"gpu001", "gpu002", "gpu009", "gpu010"}, b{"gpu001", "gpu017"};
  SimulateOptions options;
  options.sizes = {1 << 30};
  const double direct_a = predict(fabric, a, one_rail(), options).sizes.front().busbw_gbs;
  const double direct_b = predict(fabric, b, one_rail(), options).sizes.front().busbw_gbs;
  PlacementCosts one(fabric, one_rail(), 1 << 30), two(fabric, one_rail(), 1 << 30);
  const auto x = one.busbw({a, b, a, b, a}, 1);
  const auto y = two.busbw({a, b, a, b, a}, 2);
  CHECK(x == y);
  CHECK(x == std::vector<double>{direct_a, direct_b, direct_a, direct_b, direct_a});
  CHECK(one.predicted() == 2);
  CHECK(one.busbw(a) == direct_a);
  CHECK(one.predicted() == 2);
}

TEST_CASE("placement costs: a placement the fabric cannot carry is NaN, not an error") {
  const Cluster cluster = oversubscribed_tree();
  const FabricModel fabric(cluster, RoutingKind::MinHop);
  PlacementCosts costs(fabric, one_rail(), 1 << 20);
  CHECK(std::isnan(costs.busbw(std::vector<std::string>{"gpu001", "nohost"})));
}
