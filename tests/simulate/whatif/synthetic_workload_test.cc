// Seeded synthetic workloads: the same seed gives the same jobs, and the jobs have the shape
// the header promises (power-of-two sizes up to a quarter of the nodes, the offered load).
#include "simulate/whatif/synthetic_workload.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace slurmtopo;

TEST_CASE("synthetic workload: same seed, same jobs — another seed, other jobs") {
  const Workload a = synthetic_workload({200, 64, 7, 0.9});
  const Workload b = synthetic_workload({200, 64, 7, 0.9});
  const Workload c = synthetic_workload({200, 64, 8, 0.9});
  REQUIRE(a.jobs.size() == 200);
  bool same = true, differs = false;
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    same &= a.jobs[i].submit == b.jobs[i].submit && a.jobs[i].nodes == b.jobs[i].nodes &&
            a.jobs[i].run_time == b.jobs[i].run_time && a.jobs[i].time_limit == b.jobs[i].time_limit;
    differs |= a.jobs[i].submit != c.jobs[i].submit || a.jobs[i].nodes != c.jobs[i].nodes;
  }
  CHECK(same);
  CHECK(differs);
}

TEST_CASE("synthetic workload: sizes, limits and the offered load") {
  const Workload w = synthetic_workload({2000, 64, 3, 0.9});
  double node_seconds = 0;
  int64_t last_submit = 0;
  bool ordered = true, sizes_ok = true, limits_ok = true;
  int single = 0, largest = 0;
  for (const WorkloadJob& j : w.jobs) {
    ordered &= j.submit >= last_submit;
    last_submit = j.submit;
    sizes_ok &= j.nodes >= 1 && j.nodes <= 16 && (j.nodes & (j.nodes - 1)) == 0;
    limits_ok &= j.time_limit >= j.run_time && j.time_limit % 3600 == 0 && j.run_time >= 300 && j.run_time <= 4 * 3600;
    single += j.nodes == 1;
    largest += j.nodes == 16;
    node_seconds += static_cast<double>(j.nodes) * j.run_time;
  }
  CHECK(ordered);
  CHECK(sizes_ok);
  CHECK(limits_ok);
  CHECK(single > largest);  // weights 1/(k+1): 1 node is 5x as common as 16
  CHECK(largest > 0);
  // Offered load over the arrival span is the requested 0.9, within sampling noise.
  const double load = node_seconds / (64.0 * static_cast<double>(last_submit));
  CHECK(load > 0.75);
  CHECK(load < 1.05);
  CHECK_THROWS_AS(synthetic_workload({10, 0, 1, 0.9}), std::invalid_argument);
}
