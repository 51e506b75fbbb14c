// Which flows an edit moves: nothing without an edit, and after a drained spine exactly the
// flows that crossed it, plus those static routing reshuffles.
#include "simulate/whatif/route_changes.h"

#include <doctest/doctest.h>

#include "simulate/whatif/whatif_edits.h"
#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

std::vector<std::string> hosts_of(const Cluster& c) {
  std::vector<std::string> out;
  for (const Host& h : c.hosts) out.push_back(h.name);
  return out;
}

}  // namespace

TEST_CASE("route changes: the same fabric moves no flow, n·log2(n) flows per rail are compared") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase a = make_whatif_case(cluster, partition_of(cluster), {});
  const WhatifCase b = make_whatif_case(cluster, partition_of(cluster), {});
  const RouteChanges r = job_route_changes(a, b, hosts_of(cluster));
  CHECK(r.flows == 32 * 5);  // d = 1, 2, 4, 8, 16
  CHECK(r.moved == 0);
}

TEST_CASE("route changes: draining a spine moves every flow that crossed it, and only flows between leaves") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase before = make_whatif_case(cluster, partition_of(cluster), {});
  WhatifEdits edits;
  edits.drain_switches = {cluster.switches.back().name};
  REQUIRE(cluster.switches.back().level == 2);
  EditedFabrics edited = edit_fabrics(cluster, edits);
  Cluster after_cluster = build_cluster(std::move(edited.fabrics), ClusterOptions{});
  const WhatifCase after = make_whatif_case(std::move(after_cluster), partition_of(cluster), {});
  // One leaf's eight hosts: their flows never leave the leaf, so none moves.
  const std::vector<std::string> all = hosts_of(cluster);
  const RouteChanges inside = job_route_changes(before, after, std::vector<std::string>(all.begin(), all.begin() + 8));
  CHECK(inside.flows == 8 * 3);
  CHECK(inside.moved == 0);
  // The whole tree: at least the flows the drained spine carried (a quarter of those between
  // leaves under D-mod-K over four spines) moved.
  const RouteChanges whole = job_route_changes(before, after, all);
  CHECK(whole.flows == 32 * 5);
  CHECK(whole.moved > 0);
  CHECK(whole.moved < whole.flows);
}
