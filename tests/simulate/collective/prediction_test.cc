#include "simulate/collective/prediction.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "tests/simulate/simulate_fixtures.h"

using namespace slurmtopo;
using slurmtopo::testing::one_rail;
using slurmtopo::testing::oversubscribed_hdr_tree;

namespace {

constexpr double MiB = 1048576.0, GiB = 1073741824.0;

// Two 2:1 leaves of 8 one-rail HDR hosts (see contention_test.cc).
const Cluster& two_to_one() {
  static const Cluster c = oversubscribed_hdr_tree(16);
  return c;
}


std::vector<std::string> contiguous() {
  std::vector<std::string> out;
  for (int i = 0; i < 16; ++i) out.push_back(two_to_one().hosts[i].name);
  return out;
}

std::vector<std::string> alternating() {
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(two_to_one().hosts[i].name);
    out.push_back(two_to_one().hosts[8 + i].name);
  }
  return out;
}

}  // namespace

TEST_CASE("prediction: sizes as nccl-tests counts them") {
  CHECK(parse_sizes("1K,1M,16M,256M,1G,8G") ==
        std::vector<double>{1024, MiB, 16 * MiB, 256 * MiB, GiB, 8 * GiB});
  CHECK(parse_sizes("100, 2KiB,3MB , 1.5K") == std::vector<double>{100, 2048, 3 * MiB, 1536});
  CHECK_THROWS_WITH_AS(parse_sizes("1K,,2K"), doctest::Contains("expected sizes like"), InputError);
  CHECK_THROWS_AS(parse_sizes("1X"), InputError);
  CHECK_THROWS_WITH_AS(parse_sizes("1X", "--size"), doctest::Contains("--size: "), InputError);
  CHECK_THROWS_AS(parse_sizes("-1K"), InputError);
  CHECK_THROWS_AS(parse_sizes("0"), InputError);
  CHECK(format_size(1024) == "1 KiB");
  CHECK(format_size(8 * GiB) == "8 GiB");
  CHECK(format_size(1000) == "1000 B");
  CHECK(format_size(1536) == "1536 B");
}

TEST_CASE("prediction: per size the algorithm, protocol, time and nccl-tests bandwidths") {
  SimulateOptions o;
  const Prediction p = predict(two_to_one(), contiguous(), one_rail(), o);
  CHECK(p.nodes == 16);
  CHECK(p.ranks == 128);
  CHECK(p.rails == 1);
  CHECK(p.routing == "minhop");
  CHECK(p.profile == "a100-hdr");
  REQUIRE(p.sizes.size() == 6);
  for (const SizePrediction& s : p.sizes) {
    CAPTURE(s.bytes);
    CHECK(s.time_us == doctest::Approx(s.terms.total()));
    CHECK(s.algbw_gbs == doctest::Approx(s.bytes / (1e3 * s.time_us)));
    CHECK(s.busbw_gbs == doctest::Approx(s.algbw_gbs * 2 * 127 / 128));
  }
  CHECK(p.sizes.front().latency_bound);
  CHECK_FALSE(p.sizes.back().latency_bound);
  // Large messages: NIC-bound, at what NCCL expects.
  CHECK(p.sizes.back().busbw_gbs == doctest::Approx(p.sizes.back().ideal_busbw_gbs));
  CHECK(p.sizes.back().busbw_gbs < 24);
  CHECK(p.sizes.back().bottlenecks.front().resource.find("NIC") != std::string::npos);
}

TEST_CASE("prediction: the same fabric, another placement: what the uplinks cost") {
  SimulateOptions o;
  o.sizes = {8 * GiB};
  o.algorithm = Algorithm::Ring;
  const Prediction good = predict(two_to_one(), contiguous(), one_rail(), o);
  const Prediction bad = predict(two_to_one(), alternating(), one_rail(), o);
  // NCCL expects the same from both; the alternating ring gets about half through 2:1 uplinks.
  CHECK(bad.sizes[0].ideal_busbw_gbs == doctest::Approx(good.sizes[0].ideal_busbw_gbs));
  CHECK(bad.sizes[0].busbw_gbs < 0.55 * good.sizes[0].busbw_gbs);
  CHECK(bad.sizes[0].bottlenecks.front().oversubscription > 1.9);
}

TEST_CASE("prediction: NCCL chooses blind to the fabric, and a better choice on these cables is named") {
  SimulateOptions o;
  o.sizes = {8 * GiB};
  const Prediction p = predict(two_to_one(), alternating(), one_rail(), o);
  const SizePrediction& s = p.sizes[0];
  CHECK(s.algorithm == Algorithm::Ring);  // what NCCL would pick with ideal cables
  REQUIRE(s.better);
  CHECK(s.better->algorithm == Algorithm::Tree);
  CHECK(s.better->time_us < s.time_us);
}

TEST_CASE("prediction: --algo forces an algorithm the hardware and placement can run") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 4;
  const Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  SimulateOptions o;
  o.sizes = {GiB};
  o.algorithm = Algorithm::Nvls;
  CHECK(predict(c, {"gpu001"}, load_profile("h100-ndr"), o).sizes[0].algorithm == Algorithm::Nvls);
  CHECK_THROWS_WITH_AS(predict(c, {"gpu001"}, load_profile("a100-hdr"), o),
                       doctest::Contains("cannot run nvls: profile a100-hdr has no NVLink SHARP"), InputError);
  CHECK_THROWS_WITH_AS(predict(c, {"gpu001", "gpu002"}, load_profile("h100-ndr"), o),
                       doctest::Contains("use nvlstree"), InputError);
  o.algorithm = Algorithm::Tree;
  o.collective = Collective::AllGather;
  CHECK_THROWS_WITH_AS(predict(c, {"gpu001"}, load_profile("h100-ndr"), o),
                       doctest::Contains("trees for allreduce only"), InputError);
  o.algorithm.reset();
  CHECK_THROWS_WITH_AS(predict(c, {}, load_profile("h100-ndr"), o), doctest::Contains("at least one host"),
                       InputError);
}

TEST_CASE("prediction: one GPU moves nothing") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 4;
  const Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  HardwareProfile h = load_profile("h100-ndr");
  h.gpus_per_node = 1;
  const Prediction p = predict(c, {"gpu001"}, h, SimulateOptions{});
  CHECK(p.ranks == 1);
  CHECK(p.sizes[0].busbw_gbs == 0);
  CHECK(p.sizes[0].time_us == h.calibration.launch_us);
  CHECK(p.warnings == std::vector<std::string>{"one GPU: a collective moves no data"});
}

TEST_CASE("prediction: every collective, deterministic") {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  const Cluster c = build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  const FabricModel fabric(c, RoutingKind::Ftree);
  const std::vector<std::string> hosts{"dgx001", "dgx005", "dgx002", "dgx006"};
  for (Collective coll : {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather, Collective::Broadcast}) {
    CAPTURE(to_string(coll));
    SimulateOptions o;
    o.collective = coll;
    const Prediction a = predict(fabric, hosts, load_profile("h100-ndr"), o);
    const Prediction b = predict(fabric, hosts, load_profile("h100-ndr"), o);
    REQUIRE(a.sizes.size() == b.sizes.size());
    for (size_t i = 0; i < a.sizes.size(); ++i) {
      CHECK(a.sizes[i].time_us == b.sizes[i].time_us);
      CHECK(a.sizes[i].algorithm == b.sizes[i].algorithm);
      CHECK(a.sizes[i].busbw_gbs > 0);
      if (coll != Collective::AllReduce) CHECK(a.sizes[i].algorithm == Algorithm::Ring);
    }
    CHECK(a.routing == "ftree");
  }
}
