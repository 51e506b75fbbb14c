// NCCL's cost model as collective.h applies it, checked against the formulas in
// ../shared/reference/collectives.md worked by hand.
#include "simulate/collective/nccl_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "base/input_error.h"

using namespace slurmtopo;

namespace {

const HardwareProfile& h100() {
  static const HardwareProfile h = load_profile("h100-ndr");
  return h;
}
const HardwareProfile& a100() {
  static const HardwareProfile h = load_profile("a100-hdr");
  return h;
}

constexpr double kGiB = 1073741824.0;

}  // namespace

TEST_CASE("collective: names") {
  CHECK(parse_collective("reducescatter") == Collective::ReduceScatter);
  CHECK(std::string(to_string(Collective::AllGather)) == "allgather");
  CHECK(parse_algorithm("nvlstree") == Algorithm::NvlsTree);
  CHECK_THROWS_AS(parse_algorithm("auto"), InputError);
  CHECK_THROWS_WITH_AS(parse_collective("alltoall"), doctest::Contains("expected allreduce"), InputError);
}

TEST_CASE("collective: layout balances channels over the rails across nodes") {
  HardwareProfile h = a100();
  h.channels = 12;
  CHECK(make_layout(h, 1).channels == 12);  // one node: no NIC involved
  const Layout l = make_layout(h, 4);
  CHECK(l.channels == 16);
  CHECK(l.ranks() == 32);
  CHECK(l.rails == 8);
}

TEST_CASE("collective: nccl-tests bus bandwidth factors") {
  CHECK(bus_factor(Collective::AllReduce, 8) == doctest::Approx(1.75));
  CHECK(bus_factor(Collective::ReduceScatter, 8) == doctest::Approx(0.875));
  CHECK(bus_factor(Collective::AllGather, 4) == doctest::Approx(0.75));
  CHECK(bus_factor(Collective::Broadcast, 8) == 1.0);
  CHECK(bus_factor(Collective::AllReduce, 1) == 0);
}

TEST_CASE("collective: which algorithms NCCL runs where") {
  const Layout one = make_layout(h100(), 1), four = make_layout(h100(), 4);
  CHECK(available(Collective::AllReduce, Algorithm::Nvls, Protocol::Simple, h100(), one));
  CHECK_FALSE(available(Collective::AllReduce, Algorithm::Nvls, Protocol::LL, h100(), one));
  CHECK_FALSE(available(Collective::AllReduce, Algorithm::Nvls, Protocol::Simple, h100(), four));  // needs SHARP
  CHECK(available(Collective::AllReduce, Algorithm::NvlsTree, Protocol::Simple, h100(), four));
  CHECK_FALSE(available(Collective::AllReduce, Algorithm::NvlsTree, Protocol::Simple, h100(), one));
  CHECK(available(Collective::AllGather, Algorithm::Nvls, Protocol::Simple, h100(), one));
  CHECK_FALSE(available(Collective::Broadcast, Algorithm::Nvls, Protocol::Simple, h100(), one));
  CHECK_FALSE(available(Collective::ReduceScatter, Algorithm::Tree, Protocol::Simple, h100(), four));
  CHECK(available(Collective::Broadcast, Algorithm::Ring, Protocol::LL128, h100(), four));
  // The A100 profile has no NVLS; it runs LL128 over NVLink, as NCCL does on Ampere.
  CHECK_FALSE(available(Collective::AllReduce, Algorithm::Nvls, Protocol::Simple, a100(), one));
  CHECK(available(Collective::AllReduce, Algorithm::Ring, Protocol::LL128, a100(), one));
  CHECK(available(Collective::AllReduce, Algorithm::Ring, Protocol::LL, a100(), one));
  HardwareProfile single = h100();
  single.gpus_per_node = 1;
  CHECK_FALSE(available(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, single, make_layout(single, 1)));
}

TEST_CASE("collective: NCCL's latencies, worked by hand") {
  const Layout one = make_layout(h100(), 1), four = make_layout(h100(), 4);
  using C = Collective;
  using A = Algorithm;
  using P = Protocol;
  // One node, 8 ranks: base + 2(p−1)·hwLat[NVLink].
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::Simple, h100(), one) == doctest::Approx(8.4 + 14 * 3.4));
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::LL, h100(), one) == doctest::Approx(6.6 + 14 * 0.6));
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::LL128, h100(), one) == doctest::Approx(14 + 14 * 1.9));
  CHECK(nccl_latency_us(C::ReduceScatter, A::Ring, P::Simple, h100(), one) == doctest::Approx(8.4 + 7 * 3.4));
  CHECK(nccl_latency_us(C::AllReduce, A::Tree, P::LL, h100(), one) == doctest::Approx(6.8 + 2 * 7 * 0.6));
  CHECK(nccl_latency_us(C::AllReduce, A::Nvls, P::Simple, h100(), one) == doctest::Approx(25));
  // Broadcast: one hop a step, Simple paying a tree chunk's latency.
  CHECK(nccl_latency_us(C::Broadcast, A::Ring, P::Simple, h100(), one) == doctest::Approx(8.4 + 8 * 4.0));
  // Four nodes, 32 ranks: 2(N−1) = 6 network steps, the other 56 at max(NVLink, 3·netOverhead).
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::Simple, h100(), four) ==
        doctest::Approx(8.4 + 56 * std::max(3.4, 3 * 1.0) + 6 * 14));
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::Simple, a100(), make_layout(a100(), 4)) ==
        doctest::Approx(8.4 + 56 * (3 * 2.0) + 6 * 14));  // AMD: netOverhead 2 µs
  CHECK(nccl_latency_us(C::AllReduce, A::Ring, P::LL, h100(), four) == doctest::Approx(6.6 + 56 * 1.0 + 6 * 2.7));
  CHECK(nccl_latency_us(C::AllReduce, A::Tree, P::Simple, h100(), four) ==
        doctest::Approx(8.4 + 2 * (7 * 4.0 + 2 * 14)));
  CHECK(nccl_latency_us(C::AllReduce, A::NvlsTree, P::Simple, h100(), four) == doctest::Approx(25 + 2 * 2 * 20.9));
}

TEST_CASE("collective: NCCL's protocol refinements and bus to algorithm bandwidth") {
  const Layout one = make_layout(h100(), 1), four = make_layout(h100(), 4);
  using C = Collective;
  using A = Algorithm;
  using P = Protocol;
  const double nvl = 18 * 20.6;
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Ring, P::Simple, nvl, h100(), one) == doctest::Approx(nvl * 8 / 14));
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Ring, P::LL, nvl, h100(), one) == doctest::Approx(141.0 * 8 / 14));
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Ring, P::LL128, nvl, h100(), one) ==
        doctest::Approx(nvl * 0.92 * 8 / 14));
  CHECK(nccl_algorithm_bw(C::AllGather, A::Ring, P::Simple, nvl, h100(), one) == doctest::Approx(nvl * 8 / 7));
  CHECK(nccl_algorithm_bw(C::Broadcast, A::Ring, P::Simple, nvl, h100(), one) == doctest::Approx(nvl));
  // LL128 per-channel cap: 16 channels × 36.7.
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Ring, P::LL128, 1000, h100(), one) == doctest::Approx(16 * 36.7 * 8 / 14));
  // Tree across 4 nodes: busBw 384 → ×0.92, ×0.5; LL ÷3.8 capped by llMaxBw[≥4 nodes].
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Tree, P::Simple, 384, h100(), four) == doctest::Approx(384 * 0.92 * 0.5));
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Tree, P::LL, 384, h100(), four) == doctest::Approx(35 * 0.5));
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Tree, P::LL128, 384, h100(), four) ==
        doctest::Approx(384 * 0.92 * 120 / 128 * 0.5));
  CHECK(nccl_algorithm_bw(C::AllReduce, A::Nvls, P::Simple, 280, h100(), one) == 280);
}

TEST_CASE("collective: predicted time, term by term") {
  const Layout one = make_layout(h100(), 1);
  const double bw = 211.9;
  const TimeTerms t = predict_time(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 8 * kGiB, bw, h100(), one);
  CHECK(t.launch == h100().calibration.launch_us);
  CHECK(t.latency == doctest::Approx(56));
  CHECK(t.transfer == doctest::Approx(8 * kGiB / (1e3 * bw)));
  // Ring Simple: every one of its 14 steps pays the protocol's step once; its 2 MiB chunks
  // take longer than a step, so the rest overlaps.
  CHECK(t.sync == doctest::Approx(h100().calibration.step_us[2] * 14));
  CHECK(t.fill == 0);  // a ring's steps are NCCL's latency already
  CHECK(t.total() == doctest::Approx(t.launch + t.latency + t.transfer + t.sync + t.fill));

  // LL and LL128 pay no per-step cost: their flags travel with the data.
  const TimeTerms ll = predict_time(Collective::AllReduce, Algorithm::Ring, Protocol::LL, 1 << 20, 80, h100(), one);
  CHECK(ll.sync == 0);

  // A tree's pipeline: 2((G−1) + log2 N) stages; Simple's 512 KiB chunks, 16 channels.
  const Layout sixteen = make_layout(h100(), 16);
  CHECK(pipeline_depth(Algorithm::Tree, sixteen) == 2 * (7 + 4));
  const TimeTerms tr = predict_time(Collective::AllReduce, Algorithm::Tree, Protocol::Simple, kGiB, 150, h100(), sixteen);
  const double chunks = kGiB / 16 / (512 * 1024);
  CHECK(tr.fill == doctest::Approx((2 * (7 + 4) - 1) * tr.transfer / chunks));
  const double jitter = h100().calibration.net_jitter_us * 2 * 4 * std::sqrt(2 * std::log(16.0));
  const double step = h100().calibration.step_us[2], chunk_us = tr.transfer / chunks;
  CHECK(tr.sync == doctest::Approx(step * 2 * (7 + 4) + chunks * std::max(0.0, step - chunk_us) + jitter));
  // NCCL's chunk rules: NVLSTree takes 64 KiB from four nodes on.
  CHECK(nccl_chunk_bytes(Algorithm::NvlsTree, Protocol::Simple, kGiB, 16, sixteen) == 65536);
  // Fewer channels for small messages: 64 KiB on Simple rings leaves 2 (64 KiB / (512 × 64)).
  CHECK(nccl_channels(Algorithm::Ring, Protocol::Simple, 65536, sixteen) == 2);
  CHECK(nccl_channels(Algorithm::Ring, Protocol::Simple, kGiB, sixteen) == 16);

  // Across nodes NCCL stretches the Simple ring's latency by 1.4 once chunks are not tiny.
  const Layout four = make_layout(h100(), 4);
  const double lat = nccl_latency_us(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, h100(), four);
  CHECK(predict_time(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, kGiB, 190, h100(), four).latency ==
        doctest::Approx(1.4 * lat));
  CHECK(predict_time(Collective::AllReduce, Algorithm::Ring, Protocol::Simple, 1024, 190, h100(), four).latency ==
        doctest::Approx(lat));

  // NCCL's tree correction: at 1 MiB (log2(2^20 / 64) = 14) Simple trees get half their bandwidth.
  const TimeTerms tree = predict_time(Collective::AllReduce, Algorithm::Tree, Protocol::Simple, 1 << 20, 100, h100(), four);
  CHECK(tree.transfer == doctest::Approx((1 << 20) / (1e3 * 100 * 0.5)));
}

TEST_CASE("collective: NCCL's double binary tree") {
  const DoubleTree four = double_binary_tree(4);
  CHECK(four.parent[0] == std::vector<int>{-1, 2, 0, 2});
  CHECK(four.parent[1] == std::vector<int>{1, 3, 1, -1});  // mirrored
  const DoubleTree five = double_binary_tree(5);
  CHECK(five.parent[0] == std::vector<int>{-1, 2, 4, 2, 0});
  CHECK(five.parent[1] == std::vector<int>{1, -1, 3, 0, 3});  // shifted by one

  for (int n = 1; n <= 130; ++n) {
    CAPTURE(n);
    const DoubleTree t = double_binary_tree(n);
    std::vector<int> inner(n, 0);
    for (int k = 0; k < 2; ++k) {
      int roots = 0, deepest = 0;
      std::vector<int> children(n, 0);
      for (int r = 0; r < n; ++r) {
        const int p = t.parent[k][r];
        if (p < 0) {
          ++roots;
          continue;
        }
        REQUIRE(p < n);
        ++children[p];
        int depth = 0;  // every rank reaches the root, no cycles
        for (int x = r; t.parent[k][x] >= 0 && depth <= n; x = t.parent[k][x]) ++depth;
        deepest = std::max(deepest, depth);
      }
      CHECK(roots == 1);
      CHECK(deepest <= std::ceil(std::log2(n)) + 1);
      CHECK(*std::max_element(children.begin(), children.end()) <= 2);
      for (int r = 0; r < n; ++r) inner[r] += children[r] > 0;
    }
    // The point of two trees: a rank forwards in at most one of them (exactly so for even n;
    // the shifted tree of odd n lets one rank do both).
    int both = 0;
    for (int r = 0; r < n; ++r) both += inner[r] == 2;
    CHECK(both <= (n % 2 == 1 ? 1 : 0));
  }
}
