// What a solved sharing says about the placement: its slowest channel and the resources that
// hold it — the neighbours' flows share the resources but are not reported.
#include "simulate/collective/flow_problem.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("flow problem: the slowest of the placement's flows and what holds it — neighbours not reported") {
  // Two cables of 10 and 30 GB/s; the placement's flow a crosses both, b only the second; a
  // neighbour's flow n shares the first with a.
  Problem p;
  p.capacity = {10, 30};
  for (const Flow& f : {Flow{{0, 1}, {}}, Flow{{1}, {}}}) p.flows.add(f);
  Problem alone = p;  // the placement's flows without the neighbour's
  p.flows.add(Flow{{0}, {}});
  p.count = {1, 1, 1};
  p.per_flow = true;
  p.job = {0, 0, 1};
  p.name = [](int r) { return r == 0 ? std::string("slow cable") : std::string("fast cable"); };
  const Sharing s = max_min_fair(p.capacity, p.flows);
  // Max-min: a and n split the 10 GB/s cable, b takes the rest of the 30.
  REQUIRE(s.rate[0] == doctest::Approx(5));
  REQUIRE(s.rate[2] == doctest::Approx(5));
  const Solved out = solve_problem(p, s, {10, 30, 5});
  CHECK(out.rate == doctest::Approx(5));
  CHECK(out.bottleneck_count == 1);
  REQUIRE(out.bottlenecks.size() == 1);
  CHECK(out.bottlenecks[0].resource == "slow cable");
  // Offered: the placement's flow at what NCCL expects (10) and the neighbour's 5.
  CHECK(out.bottlenecks[0].offered_gbs == doctest::Approx(15));
  CHECK(out.bottlenecks[0].oversubscription == doctest::Approx(1.5));

  SUBCASE("without the neighbour the placement's slowest flow is alone on the slow cable") {
    alone.count = {1, 1};
    alone.per_flow = true;
    alone.name = p.name;
    const Sharing shared = max_min_fair(alone.capacity, alone.flows);
    CHECK(solve_problem(alone, shared, {10, 30}).rate == doctest::Approx(10));
  }
}
