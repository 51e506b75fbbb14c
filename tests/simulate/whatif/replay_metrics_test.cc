// Replay metrics on a schedule small enough to work out by hand: two leaves of two nodes
// under one root.
#include "simulate/whatif/replay_metrics.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace slurmtopo;

TEST_CASE("replay metrics: nearest-rank percentiles, NaN left out") {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  v.push_back(NAN);
  const Distribution d = distribution(v);
  CHECK(d.count == 100);
  CHECK(d.mean == doctest::Approx(50.5));
  CHECK(d.p50 == 50);
  CHECK(d.p90 == 90);
  CHECK(d.p99 == 99);
  CHECK(d.max == 100);
  CHECK(distribution({}).count == 0);
  CHECK(distribution({3}).p99 == 3);
}

TEST_CASE("replay metrics: spans, waits, utilisation and fragmentation by hand") {
  const LeafTree tree = leaf_tree(parse_topology_conf("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[3-4]\n"
                                                      "SwitchName=r Switches=a,b\n", "t.conf"),
                                  {"n1", "n2", "n3", "n4"});
  std::vector<WorkloadJob> jobs(3);
  jobs[0].submit = 0;
  jobs[1].submit = 0;
  jobs[2].submit = 10;
  jobs[2].nodes = 8;
  std::vector<ScheduledJob> s(3);
  s[0] = {0, 100, {0}, false};       // n1, 0-100
  s[1] = {50, 150, {1, 2}, true};    // n2 and n3: two leaves, one group; waited 50
  // s[2] never started.
  const ReplayMetrics m = replay_metrics(jobs, s, tree, std::vector<char>(4, 0), {NAN, 1.5, NAN});
  CHECK(m.jobs == 3);
  CHECK(m.started == 2);
  CHECK(m.backfilled == 1);
  CHECK(m.multi_node == 1);
  CHECK(m.span_leaves == 1);
  CHECK(m.span_groups == 0);
  CHECK(m.slowdown.count == 1);
  CHECK(m.slowdown.p50 == 1.5);
  CHECK(m.slowed == 1);
  CHECK(m.mean_wait == 25);
  CHECK(m.makespan == 150);
  // 1 node x 100 s + 2 nodes x 100 s over 4 nodes x 150 s.
  CHECK(m.utilisation == doctest::Approx(300.0 / 600));
  // 0-50: n1 busy: leaf a partly busy with 1 free of 3 free nodes (1/3). 50-100: n1-n3 busy:
  // a full, b partly busy with its 1 free node the only free one (1). 100-150: n2, n3 busy:
  // both leaves partly busy, both free nodes on them (1). Mean over 150 s.
  CHECK(m.fragmentation == doctest::Approx((50.0 / 3 + 50 + 50) / 150));
}

TEST_CASE("replay metrics: down nodes are not counted as capacity") {
  const LeafTree tree = leaf_tree(parse_topology_conf("SwitchName=a Nodes=n[1-2]\n", "t.conf"), {"n1", "n2"});
  std::vector<WorkloadJob> jobs(1);
  std::vector<ScheduledJob> s(1);
  s[0] = {0, 100, {0}, false};
  CHECK(replay_metrics(jobs, s, tree, {0, 1}, {}).utilisation == doctest::Approx(1.0));
  CHECK(replay_metrics(jobs, s, tree, {0, 0}, {}).utilisation == doctest::Approx(0.5));
}
