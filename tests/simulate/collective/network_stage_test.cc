// Jobs next door: two jobs whose flows D-mod-K puts on one uplink halve each other; adaptive
// routing spreads them over every uplink. The expected rates come from the fabric's cables and
// the routes the test finds, not from the model.
#include "simulate/collective/network_stage.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>

#include "simulate/collective/contention.h"
#include "simulate/collective/prediction.h"
#include "tests/simulate/simulate_fixtures.h"

using namespace slurmtopo;
using slurmtopo::testing::one_rail;
using slurmtopo::testing::oversubscribed_hdr_tree;

namespace {

double cable_gbs(const Cluster& c) { return c.fabrics[0].links.front().gbps() / 8 * kCableEfficiency; }

int hca_of(const Cluster& c, const std::string& host) { return c.hosts[c.host_index(host)].hcas.front(); }

// The first cable a flow from `a` to `b` takes out of its leaf (the uplink D-mod-K picks).
DirectedLink uplink(const FabricModel& f, const std::string& a, const std::string& b) {
  const std::vector<PathShare> paths = f.routing().route(hca_of(f.cluster(), a), hca_of(f.cluster(), b));
  REQUIRE(paths.size() == 1);
  REQUIRE(paths.front().links.size() >= 2);
  return paths.front().links[1];  // [0] is the HCA's own cable
}

struct Pairs {
  std::string a1, b1, a2, b2;  // job 1 = a1,b1; job 2 = a2,b2; a on leaf 0, b on leaf 1
};

// Two jobs of two nodes each, one on each leaf, whose flows leaf 0 → leaf 1 share an uplink
// under D-mod-K.
std::optional<Pairs> colliding(const FabricModel& f) {
  const Cluster& c = f.cluster();
  for (int b1 = 8; b1 < 16; ++b1)
    for (int b2 = b1 + 1; b2 < 16; ++b2) {
      const DirectedLink u1 = uplink(f, c.hosts[0].name, c.hosts[b1].name);
      const DirectedLink u2 = uplink(f, c.hosts[1].name, c.hosts[b2].name);
      if (u1 == u2) return Pairs{c.hosts[0].name, c.hosts[b1].name, c.hosts[1].name, c.hosts[b2].name};
    }
  return std::nullopt;
}

double ring_raw(const FabricModel& f, const HardwareProfile& h, const std::vector<std::string>& job,
                const std::vector<std::string>& neighbour) {
  std::vector<NeighbourJob> next_door;
  if (!neighbour.empty()) next_door.push_back({resolve_placement(f.cluster(), neighbour, h), Algorithm::Ring});
  return simulate_contention(f, resolve_placement(f.cluster(), job, h), h, Collective::AllReduce, next_door)
      .by_algorithm[static_cast<int>(Algorithm::Ring)]
      .raw_bw;
}

}  // namespace

TEST_CASE("jobs next door: two rings on one D-mod-K uplink halve each other — adaptive routing spreads them") {
  const Cluster c = oversubscribed_hdr_tree(16);
  const HardwareProfile h = one_rail();
  const FabricModel minhop(c, RoutingKind::MinHop);
  const std::optional<Pairs> p = colliding(minhop);
  REQUIRE(p);  // 8 destinations over 4 uplinks: two of them share one
  const std::vector<std::string> job{p->a1, p->b1}, next{p->a2, p->b2};

  // Alone, a two-node ring sends one flow each way at the NIC's rate.
  CHECK(ring_raw(minhop, h, job, {}) == doctest::Approx(h.nic_gbs));
  // Next to the other job, the shared uplink gives each flow half a cable.
  const double halved = std::min(h.nic_gbs, cable_gbs(c) / 2);
  CHECK(halved == doctest::Approx(12.25));
  CHECK(ring_raw(minhop, h, job, next) == doctest::Approx(halved));
  // The same from the other job's side.
  CHECK(ring_raw(minhop, h, next, job) == doctest::Approx(halved));

  // Adaptive routing splits each flow over the leaf's 4 uplinks: two flows put half a NIC
  // on each, which a cable carries.
  const FabricModel adaptive(c, RoutingKind::Adaptive);
  const int uplinks = c.switches[c.hcas[hca_of(c, p->a1)].switches.front()].uplinks;
  REQUIRE(uplinks == 4);
  CHECK(2 * h.nic_gbs / uplinks < cable_gbs(c));
  CHECK(ring_raw(adaptive, h, job, next) == doctest::Approx(h.nic_gbs));
}

TEST_CASE("jobs next door: a job elsewhere on the fabric costs nothing — eight on one leaf share its uplinks") {
  const Cluster c = oversubscribed_hdr_tree(16);
  const HardwareProfile h = one_rail();
  const FabricModel adaptive(c, RoutingKind::Adaptive);
  // Both jobs inside their own leaf: no cable in common.
  CHECK(ring_raw(adaptive, h, {c.hosts[0].name, c.hosts[1].name}, {c.hosts[8].name, c.hosts[9].name}) ==
        doctest::Approx(h.nic_gbs));
  // Job 1 = hosts 0-3 of leaf 0 paired with 8-11 of leaf 1 (every hop crosses), job 2 the
  // same with hosts 4-7 and 12-15: 8 flows each way over 4 uplinks, spread evenly.
  std::vector<std::string> one, two;
  for (int i = 0; i < 4; ++i) {
    one.insert(one.end(), {c.hosts[i].name, c.hosts[8 + i].name});
    two.insert(two.end(), {c.hosts[4 + i].name, c.hosts[12 + i].name});
  }
  const double alone = std::min(h.nic_gbs, 4 * cable_gbs(c) / 4);  // 4 flows up over 4 uplinks
  const double shared = std::min(h.nic_gbs, 4 * cable_gbs(c) / 8);  // 8 flows up over 4 uplinks
  CHECK(ring_raw(adaptive, h, one, {}) == doctest::Approx(alone));
  CHECK(ring_raw(adaptive, h, one, two) == doctest::Approx(shared));

  SUBCASE("predict() reports both, the busbw with the neighbour and alone") {
    SimulateOptions o;
    o.sizes = {1073741824.0};
    o.routing = RoutingKind::Adaptive;
    BusyJob j;
    j.hosts = two;
    j.line = 1;
    o.busy_jobs = {j};
    const Prediction with = predict(adaptive, one, h, o);
    CHECK(with.busy_jobs == 1);
    const SizePrediction& s = with.sizes.front();
    CHECK(s.alone_busbw_gbs > s.busbw_gbs * 1.5);
    o.busy_jobs.clear();
    CHECK(predict(adaptive, one, h, o).sizes.front().busbw_gbs == doctest::Approx(s.alone_busbw_gbs));
  }
  SUBCASE("a host in both the placement and a busy job is an error naming the line") {
    SimulateOptions o;
    BusyJob j;
    j.hosts = {one.front()};
    j.line = 3;
    o.busy_jobs = {j};
    o.busy_source = "busy.txt";
    CHECK_THROWS_WITH(predict(adaptive, one, h, o), doctest::Contains("busy.txt:3"));
  }
}
