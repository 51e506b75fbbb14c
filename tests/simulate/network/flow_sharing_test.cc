#include "simulate/network/flow_sharing.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

using namespace slurmtopo;

namespace {

// Textbook progressive filling, O(flows × resources) per step: the reference the heap-based
// implementation must agree with.
std::vector<double> naive_max_min(const std::vector<Resource>& res, const std::vector<Flow>& flows) {
  const size_t F = flows.size();
  std::vector<double> rate(F, 0.0);
  std::vector<bool> frozen(F, false);
  auto w = [&](size_t f, size_t i) { return flows[f].weights.empty() ? 1.0 : flows[f].weights[i]; };
  while (true) {
    double step = 1e300;
    bool any = false;
    for (size_t f = 0; f < F; ++f)
      if (!frozen[f]) {
        any = true;
        step = std::min(step, flows[f].demand - rate[f]);
      }
    if (!any) break;
    for (size_t r = 0; r < res.size(); ++r) {
      double used = 0, active = 0;
      for (size_t f = 0; f < F; ++f)
        for (size_t i = 0; i < flows[f].resources.size(); ++i)
          if (flows[f].resources[i] == static_cast<int>(r)) {
            used += w(f, i) * rate[f];
            if (!frozen[f]) active += w(f, i);
          }
      if (active > 0) step = std::min(step, (res[r].capacity - used) / active);
    }
    for (size_t f = 0; f < F; ++f)
      if (!frozen[f]) rate[f] += step;
    // Freeze flows at their demand or on a full resource.
    for (size_t f = 0; f < F; ++f) {
      if (frozen[f]) continue;
      if (rate[f] >= flows[f].demand - 1e-9) frozen[f] = true;
      for (size_t i = 0; i < flows[f].resources.size(); ++i) {
        const int r = flows[f].resources[i];
        double used = 0;
        for (size_t g = 0; g < F; ++g)
          for (size_t k = 0; k < flows[g].resources.size(); ++k)
            if (flows[g].resources[k] == r) used += w(g, k) * rate[g];
        if (w(f, i) > 0 && used >= res[r].capacity - 1e-9) frozen[f] = true;
      }
    }
  }
  return rate;
}

}  // namespace

TEST_CASE("max_min_fair: two flows on one link get half each") {
  const std::vector<Resource> res{{"link", 10.0}};
  const Sharing s = max_min_fair(res, {Flow{{0}, {}}, Flow{{0}, {}}});
  CHECK(s.rate[0] == doctest::Approx(5.0));
  CHECK(s.rate[1] == doctest::Approx(5.0));
  CHECK(s.load[0] == doctest::Approx(10.0));
  CHECK(s.bottleneck == std::vector<int>{0, 0});
}

TEST_CASE("max_min_fair: the classic allocation, one flow crossing two links") {
  // L0 (10 GB/s) carries flows 0 and 1; L1 (4 GB/s) carries flows 0 and 2.
  // L1 fills first: at rate 4/2 = 2 for flows 0 and 2. Flow 1 then takes what L0 has left:
  // 10 - 2 = 8.
  const std::vector<Resource> res{{"L0", 10.0}, {"L1", 4.0}};
  const Sharing s = max_min_fair(res, {Flow{{0, 1}, {}}, Flow{{0}, {}}, Flow{{1}, {}}});
  CHECK(s.rate[0] == doctest::Approx(2.0));
  CHECK(s.rate[1] == doctest::Approx(8.0));
  CHECK(s.rate[2] == doctest::Approx(2.0));
  CHECK(s.bottleneck == std::vector<int>{1, 0, 1});
  CHECK(s.load[0] == doctest::Approx(10.0));
  CHECK(s.load[1] == doctest::Approx(4.0));
}

TEST_CASE("max_min_fair: weights say how much of a resource a unit of rate uses") {
  // Flow 0 is split half/half over L0 and L1 (10 GB/s each); flow 1 uses L0 whole.
  // L0 carries 0.5 r + r = 1.5 r, full at r = 10 / 1.5; L1 carries 0.5 r, full only at 20.
  const std::vector<Resource> res{{"L0", 10.0}, {"L1", 10.0}};
  const Sharing s = max_min_fair(res, {Flow{{0, 1}, {0.5, 0.5}}, Flow{{0}, {1.0}}});
  CHECK(s.rate[0] == doctest::Approx(10.0 / 1.5));
  CHECK(s.rate[1] == doctest::Approx(10.0 / 1.5));
  CHECK(s.load[0] == doctest::Approx(10.0));
  CHECK(s.load[1] == doctest::Approx(0.5 * 10.0 / 1.5));
  CHECK(s.bottleneck == std::vector<int>{0, 0});
}

TEST_CASE("max_min_fair: a flow is held at its demand, the others share what it leaves") {
  // 12 GB/s for three flows, one wanting only 2: it gets 2 (demand-bound), the others
  // (12 - 2) / 2 = 5 each.
  const std::vector<Resource> res{{"link", 12.0}};
  Flow capped{{0}, {}};
  capped.demand = 2.0;
  const Sharing s = max_min_fair(res, {capped, Flow{{0}, {}}, Flow{{0}, {}}});
  CHECK(s.rate[0] == doctest::Approx(2.0));
  CHECK(s.rate[1] == doctest::Approx(5.0));
  CHECK(s.rate[2] == doctest::Approx(5.0));
  CHECK(s.bottleneck == std::vector<int>{-1, 0, 0});
}

TEST_CASE("max_min_fair: the bottleneck is the resource that froze the flow") {
  // A chain: flow 0 crosses A (3) and B (100); flows 1..3 cross B only. A freezes flow 0 at 3;
  // B's 100 - 3 = 97 go to the three others: 97/3 each, with B as their bottleneck.
  const std::vector<Resource> res{{"A", 3.0}, {"B", 100.0}};
  const Sharing s =
      max_min_fair(res, {Flow{{0, 1}, {}}, Flow{{1}, {}}, Flow{{1}, {}}, Flow{{1}, {}}});
  CHECK(s.bottleneck == std::vector<int>{0, 1, 1, 1});
  CHECK(s.rate[0] == doctest::Approx(3.0));
  CHECK(s.rate[3] == doctest::Approx(97.0 / 3));
}

TEST_CASE("max_min_fair: edge cases") {
  const std::vector<Resource> res{{"link", 10.0}, {"dead", 0.0}};
  Flow free_flow;
  free_flow.demand = 7.0;
  const Sharing s = max_min_fair(res, {free_flow, Flow{{1}, {}}, Flow{{0, 1}, {1.0, 0.0}}});
  CHECK(s.rate[0] == 7.0);                      // no resources: its demand
  CHECK(s.rate[1] == 0.0);                      // a zero-capacity resource freezes it at 0
  CHECK(s.bottleneck[1] == 1);
  CHECK(s.rate[2] == doctest::Approx(10.0));    // weight 0 on the dead link: not limited by it
  CHECK(s.bottleneck[2] == 0);

  CHECK_THROWS_AS(max_min_fair(res, {Flow{{2}, {}}}), std::invalid_argument);
  CHECK_THROWS_AS(max_min_fair(res, {Flow{{0, 1}, {1.0}}}), std::invalid_argument);
  CHECK(max_min_fair({}, std::vector<Flow>{}).rate.empty());
}

TEST_CASE("max_min_fair: agrees with textbook progressive filling on random instances") {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 200; ++trial) {
    const int R = 1 + static_cast<int>(rng() % 8), F = 1 + static_cast<int>(rng() % 12);
    std::vector<Resource> res(R);
    for (auto& r : res) r.capacity = 1.0 + static_cast<double>(rng() % 100);
    std::vector<Flow> flows(F);
    for (auto& f : flows) {
      std::vector<int> all(R);
      for (int r = 0; r < R; ++r) all[r] = r;
      std::shuffle(all.begin(), all.end(), rng);
      const int n = 1 + static_cast<int>(rng() % std::min(R, 4));
      f.resources.assign(all.begin(), all.begin() + n);
      if (rng() % 2)
        for (int i = 0; i < n; ++i) f.weights.push_back(0.25 * (1 + rng() % 4));
      if (rng() % 4 == 0) f.demand = 1.0 + static_cast<double>(rng() % 50);
    }
    const Sharing s = max_min_fair(res, flows);
    const std::vector<double> expected = naive_max_min(res, flows);
    for (int f = 0; f < F; ++f) CHECK(s.rate[f] == doctest::Approx(expected[f]).epsilon(1e-6));
    for (int r = 0; r < R; ++r) CHECK(s.load[r] <= res[r].capacity * (1 + 1e-9));
    // Each flow's bottleneck is full and runs none of its flows faster than this one.
    for (int f = 0; f < F; ++f) {
      const int b = s.bottleneck[f];
      if (b < 0) {
        CHECK(s.rate[f] == doctest::Approx(flows[f].demand));
        continue;
      }
      CHECK(std::find(flows[f].resources.begin(), flows[f].resources.end(), b) != flows[f].resources.end());
      CHECK(s.load[b] == doctest::Approx(res[b].capacity).epsilon(1e-6));
      for (int g = 0; g < F; ++g)
        if (std::find(flows[g].resources.begin(), flows[g].resources.end(), b) != flows[g].resources.end())
          CHECK(s.rate[g] <= s.rate[f] * (1 + 1e-9));
    }
  }
}

TEST_CASE("max_min_fair: agrees with textbook progressive filling on larger instances, few and many levels") {
  // The resources to fill are read off a sorted list: bucketed by level when few levels
  // occur (NIC-like capacities), sorted outright when many do. Both must give the textbook's
  // rates and keep every bottleneck full.
  std::mt19937 rng(7301);
  for (int trial = 0; trial < 40; ++trial) {
    const bool few = trial % 2 == 0;
    const int R = 40 + static_cast<int>(rng() % 80), F = 30 + static_cast<int>(rng() % 90);
    std::vector<Resource> res(R);
    for (auto& r : res) r.capacity = few ? 25.0 * (1 + rng() % 3) : 1.0 + static_cast<double>(rng() % 1000) / 7;
    std::vector<Flow> flows(F);
    for (auto& f : flows) {
      std::vector<int> all(R);
      for (int r = 0; r < R; ++r) all[r] = r;
      std::shuffle(all.begin(), all.end(), rng);
      f.resources.assign(all.begin(), all.begin() + 1 + static_cast<int>(rng() % 5));
      std::sort(f.resources.begin(), f.resources.end());
    }
    const Sharing s = max_min_fair(res, flows);
    const std::vector<double> expected = naive_max_min(res, flows);
    for (int f = 0; f < F; ++f) {
      CHECK(s.rate[f] == doctest::Approx(expected[f]).epsilon(1e-6));
      const int b = s.bottleneck[f];
      REQUIRE(b >= 0);
      CHECK(s.load[b] == doctest::Approx(res[b].capacity).epsilon(1e-6));
    }
  }
}

TEST_CASE("max_min_fair: resources filling at the same level fill in index order") {
  // Three equal links in a row, each flow crossing two of them: every link fills at 5. The
  // lowest index fills first and holds both its flows; of the two left full, L1 holds flow 0.
  const std::vector<Resource> res{{"L0", 10.0}, {"L1", 10.0}, {"L2", 10.0}};
  const Sharing s = max_min_fair(res, {Flow{{1, 2}, {}}, Flow{{0, 1}, {}}, Flow{{0, 2}, {}}});
  CHECK(s.bottleneck == std::vector<int>{1, 0, 0});
  for (double r : s.rate) CHECK(r == doctest::Approx(5.0));
}

TEST_CASE("max_min_fair: unused resources change nothing (the sparse path agrees with the dense)") {
  // The classic instance again, its two links placed among 10,000 unused ones: few crossings
  // over many resources take the sparse numbering, the answer must not move.
  std::vector<Resource> res(10000, Resource{"unused", 1.0});
  res[4711] = {"L0", 10.0};
  res[17] = {"L1", 4.0};
  const Sharing s = max_min_fair(res, {Flow{{4711, 17}, {}}, Flow{{4711}, {}}, Flow{{17}, {}}});
  CHECK(s.rate[0] == doctest::Approx(2.0));
  CHECK(s.rate[1] == doctest::Approx(8.0));
  CHECK(s.rate[2] == doctest::Approx(2.0));
  CHECK(s.bottleneck == std::vector<int>{17, 4711, 17});
  REQUIRE(s.load.size() == res.size());
  CHECK(s.load[4711] == doctest::Approx(10.0));
  CHECK(s.load[17] == doctest::Approx(4.0));
  CHECK(s.load[0] == 0.0);
}

TEST_CASE("max_min_fair: a FlowSet built flow by flow shares as the flows do") {
  // Weights on the first flow only, then none, then a flow built crossing by crossing: the
  // set keeps every weight where it belongs (a flow without weights weighs 1.0 throughout).
  const std::vector<Resource> res{{"L0", 12.0}, {"L1", 6.0}};
  const std::vector<Flow> flows{Flow{{0, 1}, {0.5, 0.5}}, Flow{{0}, {}}, Flow{{1}, {}}};
  FlowSet set;
  set.add(flows[0]);
  set.add(flows[1]);
  set.resources.push_back(1);
  set.weights.push_back(1.0);
  set.close();
  REQUIRE(set.size() == 3);
  CHECK(set.weight(0) == 0.5);
  CHECK(set.weight(2) == 1.0);
  const Sharing a = max_min_fair(res, flows), b = max_min_fair(res, set);
  CHECK(a.rate == b.rate);
  CHECK(a.bottleneck == b.bottleneck);
  // L1: 0.5 r0 + r2 = 6 with r0 = r2 = 4; L0 then gives flow 1 what is left: 12 - 2 = 10.
  CHECK(b.rate[0] == doctest::Approx(4.0));
  CHECK(b.rate[1] == doctest::Approx(10.0));

  // The open flow's repeated resources merge into one crossing each, in resource order.
  set.resources.insert(set.resources.end(), {1, 0, 1});
  set.weights.insert(set.weights.end(), {0.5, 1.0, 0.25});
  set.merge_open();
  set.close();
  CHECK(std::vector<int>(set.resources.begin() + set.begin(3), set.resources.end()) == std::vector<int>{0, 1});
  CHECK(std::vector<double>(set.weights.begin() + set.begin(3), set.weights.end()) == std::vector<double>{1.0, 0.75});

  FlowSet broken = set;
  broken.first.pop_back();
  CHECK_THROWS_AS(max_min_fair(res, broken), std::invalid_argument);
}

TEST_CASE("max_min_fair_slowest: the slowest flows exactly as a full solve gives them, the rest only bounded") {
  // The classic instance: L1 (4) holds flows 0 and 2 at 2; flow 1 would get the 8 L0 has left.
  const std::vector<double> cap{10.0, 4.0};
  FlowSet classic;
  for (const Flow& f : {Flow{{0, 1}, {}}, Flow{{0}, {}}, Flow{{1}, {}}}) classic.add(f);
  const Sharing stopped = max_min_fair_slowest(cap, classic, 1e-9);
  CHECK(stopped.rate[0] == 2.0);
  CHECK(stopped.rate[2] == 2.0);
  CHECK(stopped.bottleneck == std::vector<int>{1, -1, 1});
  CHECK(stopped.rate[1] > 2.0);
  CHECK(stopped.rate[1] <= 8.0 * (1 + 1e-12));
  CHECK(stopped.load[1] == doctest::Approx(4.0));

  // Random instances, with weights, demands, few and many levels: every flow a full solve
  // puts within the headroom of the slowest comes out identical; every other one above it.
  std::mt19937 rng(99173);
  int cut_short = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const bool few = trial % 2 == 0;
    const int R = 2 + static_cast<int>(rng() % 60), F = 1 + static_cast<int>(rng() % 80);
    std::vector<double> capacity(R);
    for (auto& c : capacity) c = few ? 25.0 * (1 + rng() % 3) : 1.0 + static_cast<double>(rng() % 1000) / 7;
    FlowSet set;
    for (int f = 0; f < F; ++f) {
      Flow flow;
      std::vector<int> all(R);
      for (int r = 0; r < R; ++r) all[r] = r;
      std::shuffle(all.begin(), all.end(), rng);
      flow.resources.assign(all.begin(), all.begin() + 1 + static_cast<int>(rng() % std::min(R, 5)));
      if (trial % 3 == 1)
        for (size_t i = 0; i < flow.resources.size(); ++i) flow.weights.push_back(0.25 * (1 + rng() % 4));
      if (rng() % 5 == 0) flow.demand = 1.0 + static_cast<double>(rng() % 50);
      set.add(flow);
    }
    const double headroom = 4e-9;
    const Sharing full = max_min_fair(capacity, set);
    const Sharing part = max_min_fair_slowest(capacity, set, headroom);
    const double slowest = *std::min_element(full.rate.begin(), full.rate.end());
    CHECK(*std::min_element(part.rate.begin(), part.rate.end()) == slowest);
    std::vector<char> all_frozen(R, 1);
    for (int f = 0; f < F; ++f) {
      if (full.rate[f] <= slowest * (1 + headroom)) {
        CHECK(part.rate[f] == full.rate[f]);
        CHECK(part.bottleneck[f] == full.bottleneck[f]);
      } else {
        ++cut_short;
        CHECK(part.rate[f] > slowest * (1 + headroom));
        CHECK(part.rate[f] <= full.rate[f]);
        for (int k = set.begin(f); k < set.end(f); ++k) all_frozen[set.resources[k]] = 0;
      }
    }
    for (int r = 0; r < R; ++r)
      if (all_frozen[r]) CHECK(part.load[r] == full.load[r]);
  }
  CHECK(cut_short > 1000);  // the filling did stop early, on most instances
}
