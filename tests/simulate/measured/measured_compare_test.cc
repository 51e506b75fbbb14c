// Measured against predicted on the simulator's own fabric (a generated rail-optimized DGX H100
// unit): runs written in nccl-tests' and NCCL's formats from the prediction itself, healthy or
// with a planted fault — sockets on one host, GPUDirect off, a rank on another rail, a cable on
// the routes with symbol errors, a degraded cable — read back through the readers, compared,
// and the cause named; and what must stay quiet (a healthy run, an unclaimed size) stays quiet.
#include "simulate/measured/measured_findings.h"
#include "simulate/measured/measured_simulation.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "discover/nccl_log.h"
#include "discover/nccl_tests_output.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_faults.h"
#include "simulate/collective/collective.h"
#include "simulate/network/network.h"
#include "discover/nvlink_domains.h"
#include "discover/synthetic_names.h"
#include "tests/simulate/collective/nvl72_racks.h"
#include "tests/simulate/measured/nccl_text.h"

using namespace slurmtopo;
using slurmtopo::testing::HostPlan;
using slurmtopo::testing::write_run;

namespace {

constexpr double MiB = 1048576.0, GiB = 1024 * MiB;

Cluster unit_cluster(const Faults& faults = {}) {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  Fabric f = generate_rail_optimized(spec);
  apply_faults(f, faults);
  return build_cluster({std::move(f)}, ClusterOptions{});
}

struct Case {
  Cluster cluster;
  HardwareProfile profile = load_profile("h100-ndr");
  std::vector<std::string> hosts{"dgx001", "dgx002", "dgx003", "dgx004"};
  std::vector<double> sizes{16 * MiB, 128 * MiB, 1 * GiB, 8 * GiB};

  // The prediction's busbw at each size, × factor.
  std::vector<double> predicted(double factor) const {
    SimulateOptions o;
    o.sizes = sizes;
    const Prediction p = predict(cluster, hosts, profile, o);
    std::vector<double> out;
    for (const auto& s : p.sizes) out.push_back(s.busbw_gbs * factor);
    return out;
  }

  RunComparison compare(const std::string& text) const {
    std::vector<NcclTestsRun> runs = parse_nccl_tests_output(text, "run.out");
    REQUIRE(runs.size() == 1);
    const std::vector<MeasuredRun> measured = join_measured(std::move(runs), {parse_nccl_log(text, "run.out")});
    const FabricModel fabric(cluster, RoutingKind::MinHop);
    MeasuredContext ctx;
    ctx.fabric = &fabric;
    ctx.profile = &profile;
    return compare_run(measured.front(), ctx);
  }
};

std::vector<HostPlan> healthy(size_t n) { return std::vector<HostPlan>(n); }

bool has(const std::vector<MeasuredFinding>& f, MeasuredKind k) {
  for (const auto& x : f)
    if (x.kind == k) return true;
  return false;
}

}  // namespace

// The quiet side of every kind: sockets, GDR, HCAs, wrong results and above, all clean.
TEST_CASE("measured: a healthy run at the prediction is within at every claimed size and finds nothing") {
  Case c{unit_cluster()};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.97), healthy(4)));
  REQUIRE(r.not_predicted == "");
  CHECK(r.logged);
  CHECK(r.ranks == 32);
  CHECK(r.gpus_per_host == 8);
  REQUIRE(r.sizes.size() == 4);
  for (const SizeCheck& s : r.sizes) {
    CHECK(s.standing == Standing::Within);
    CHECK(s.prediction_error == doctest::Approx(1 / 0.97 - 1).epsilon(0.02));
  }
  CHECK(r.causes.empty());
  CHECK(measured_findings({r}).empty());
}

TEST_CASE("measured: sockets on one host are named as the cause of a run at a third of the prediction") {
  Case c{unit_cluster()};
  std::vector<HostPlan> plans = healthy(4);
  plans[2].sockets = true;
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.3), plans));
  REQUIRE(r.below());
  REQUIRE(!r.causes.empty());
  CHECK(r.causes.front().order == 1);
  CHECK(r.causes.front().subject == "dgx003");
  CHECK(r.causes.front().detail.find("libibverbs") != std::string::npos);
  const auto f = measured_findings({r});
  REQUIRE(has(f, MeasuredKind::Below));
  CHECK(has(f, MeasuredKind::Sockets));
  CHECK(f.front().detail.find("likely cause: dgx003: NCCL used network Socket") != std::string::npos);
}

TEST_CASE("measured: GPUDirect off on one host comes before a node or cable cause") {
  Case c{unit_cluster()};
  std::vector<HostPlan> plans = healthy(4);
  plans[1].no_gdr = true;
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.6), plans));
  REQUIRE(r.below());
  REQUIRE(!r.causes.empty());
  CHECK(r.causes.front().order == 2);
  CHECK(r.causes.front().subject == "dgx002");
  CHECK(r.causes.front().detail.find("16 of 16 NET/IB channels without GDRDMA") != std::string::npos);
}

TEST_CASE("measured: a one-node run that says Using network Socket stays quiet, its ranks talk over NVLink") {
  // A node without an ACTIVE HCA (a VM, a login node) prints it for every single-node run.
  Case c{unit_cluster()};
  c.hosts = {"dgx001"};
  std::vector<HostPlan> plans = healthy(1);
  plans[0].sockets = true;
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.97), plans));
  REQUIRE(r.not_predicted == "");
  CHECK(r.causes.empty());
  CHECK(measured_findings({r}).empty());
}

TEST_CASE("measured: GPUDirect checked off for a pair no channel uses stays quiet, and counts without channel lines") {
  // graph/paths.cc checks GPU/HCA pairs it then leaves unused; every channel here is GDRDMA.
  Case c{unit_cluster()};
  std::vector<HostPlan> plans = healthy(4);
  plans[1].gdr_pair_logged = true;
  RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.97), plans));
  CHECK(r.causes.empty());
  CHECK(measured_findings({r}).empty());
  // Without the connection lines, the "Disabled" lines are all there is: a warning.
  for (HostPlan& p : plans) p.no_channel_lines = true;
  r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.97), plans));
  REQUIRE(r.causes.size() == 1);
  CHECK(r.causes.front().order == 2);
  CHECK(r.causes.front().subject == "dgx002");
  CHECK(r.causes.front().detail.find("GPU Direct RDMA disabled for GPU") != std::string::npos);
  const auto f = measured_findings({r});
  REQUIRE(f.size() == 1);
  CHECK(f.front().kind == MeasuredKind::NoGdr);
  CHECK(measured_kind(f.front().kind).severity == Severity::Warn);
}

TEST_CASE("measured: a rank sending on another rail than its peers is named") {
  Case c{unit_cluster()};
  std::vector<HostPlan> plans = healthy(4);
  plans[3].rail_of_rank0 = 4;  // GPU 0 of dgx004 sends through mlx5_4
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.7), plans));
  REQUIRE(r.below());
  REQUIRE(!r.causes.empty());
  CHECK(r.causes.front().order == 3);
  CHECK(r.causes.front().subject == "dgx004");
  CHECK(r.causes.front().detail.find("position 0") != std::string::npos);
}

TEST_CASE("measured: a cable on the run's routes counting symbol errors is named, one elsewhere is not") {
  Case c{unit_cluster()};
  // The first cable of dgx001 (its rail-1 HCA to its leaf) and one of a host outside the run.
  auto cable_of = [&](const std::string& host) {
    const Host& h = c.cluster.hosts[c.cluster.host_index(host)];
    const Hca& hca = c.cluster.hcas[h.hcas.front()];
    const Fabric& f = c.cluster.fabrics[hca.fabric];
    for (size_t l = 0; l < f.links.size(); ++l)
      if (f.links[l].a.guid == hca.guid || f.links[l].b.guid == hca.guid) return static_cast<int>(l);
    return -1;
  };
  CableEndHealth bad;
  bad.cable = "su1-rail1[1] - dgx001 mlx5_0";
  bad.link = cable_of("dgx001");
  bad.over = 1;
  REQUIRE(bad.link >= 0);
  c.cluster.counter_sources.push_back(CounterSource{"counters.txt", "ibqueryerrors", ""});
  c.cluster.cable_health.push_back(bad);
  c.hosts = {"dgx002", "dgx003"};  // dgx001 out of the run: its cable is not on the routes
  RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.6), healthy(2)));
  REQUIRE(r.below());
  CHECK(r.causes.empty());
  c.hosts = {"dgx001", "dgx002"};
  r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.6), healthy(2)));
  REQUIRE(r.causes.size() == 1);
  CHECK(r.causes.front().order == 5);
  CHECK(r.causes.front().detail.find("su1-rail1[1] - dgx001 mlx5_0 is on the run's routes") != std::string::npos);
}

TEST_CASE("measured: a degraded cable on the routes is named when the run falls short") {
  Case c{unit_cluster(Faults{.degrade_cables = {{"dgx002", "su1-rail3", 1}}})};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.5), healthy(4)));
  REQUIRE(r.below());
  bool named = false;
  for (const Cause& cause : r.causes) named |= cause.order == 5 && cause.detail.find("degraded-link") == 0;
  CHECK(named);
}

TEST_CASE("measured: nothing explains a slow run with a clean log, and it says so") {
  Case c{unit_cluster()};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.7), healthy(4)));
  REQUIRE(r.below());
  CHECK(r.causes.empty());
  const auto f = measured_findings({r});
  REQUIRE(f.size() == 1);
  CHECK(f.front().detail.find("nothing in the evidence explains it: RDMA with GPUDirect on every host") !=
        std::string::npos);
}

TEST_CASE("measured: a run above the prediction is the model's fault, and wrong results fail") {
  Case c{unit_cluster()};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(1.3), healthy(4), 3));
  CHECK(r.above());
  CHECK(!r.below());
  CHECK(r.wrong == 3);
  const auto f = measured_findings({r});
  CHECK(has(f, MeasuredKind::Above));
  CHECK(has(f, MeasuredKind::Wrong));
  CHECK(measured_kind(MeasuredKind::Above).severity == Severity::Info);
}

TEST_CASE("measured: within the error above, above where nothing is claimed, and #wrong N/A stay quiet") {
  Case c{unit_cluster()};
  // 8 % over the prediction at 128 MiB and up, where the model claims ±10 % across nodes; -c 0.
  RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(1.08), healthy(4), -1));
  CHECK(!r.above());
  CHECK(r.wrong == 0);
  CHECK(measured_findings({r}).empty());
  // Three times the prediction below 16 MiB, where nothing is claimed across nodes.
  c.sizes = {65536, 1 * MiB, 8 * MiB};
  r = c.compare(write_run(c.hosts, c.sizes, c.predicted(3.0), healthy(4)));
  CHECK(!r.above());
  CHECK(measured_findings({r}).empty());
}

TEST_CASE("measured: sizes the model claims nothing for are shown, never judged") {
  Case c{unit_cluster()};
  c.sizes = {1024, 65536, 1 * MiB};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, c.predicted(0.2), healthy(4)));
  REQUIRE(r.sizes.size() == 3);
  for (const SizeCheck& s : r.sizes) CHECK(s.standing == Standing::NotClaimed);
  CHECK(!r.below());
  CHECK(measured_findings({r}).empty());
}

TEST_CASE("measured: the model's stated error follows docs/simulator.md's claims") {
  CHECK(!stated_error(512 * 1024, 1, 90).tolerance);
  CHECK(*stated_error(1 * MiB, 1, 90).tolerance == 0.15);
  CHECK(!stated_error(16 * MiB, 1, 80).tolerance);
  CHECK(*stated_error(8 * GiB, 1, 90).tolerance == 0.10);
  CHECK(!stated_error(8 * MiB, 4, 90).tolerance);
  CHECK(*stated_error(16 * MiB, 4, 90).tolerance == 0.25);
  CHECK(*stated_error(128 * MiB, 512, 90).tolerance == 0.10);
  CHECK(*stated_error(1 * GiB, 2, 90).tolerance == 0.20);
}

// Published runs whose hardware is known (../shared/reference/collectives.md: the numbers, in
// nccl-tests' format): a healthy cluster must pass, and the same run with a planted fault must
// fail with the fault named.
TEST_CASE("measured: Azure's published 8x H200 sweep is within the model at every claimed size") {
  Case c{unit_cluster()};
  c.profile = load_profile("h200-ndr");
  c.hosts = {"dgx001"};
  c.sizes = {1024, 65536, 1 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, 1 * GiB, 8 * GiB};
  const std::vector<double> published{0.06, 3.72, 52.96, 240.41, 368.11, 432.24, 467.58, 479.98};
  const RunComparison r = c.compare(write_run(c.hosts, c.sizes, published, healthy(1), 0, "NVIDIA H200"));
  REQUIRE(r.not_predicted == "");
  REQUIRE(r.sizes.size() == 8);
  CHECK(r.sizes[0].standing == Standing::NotClaimed);
  CHECK(r.sizes[1].standing == Standing::NotClaimed);
  for (size_t i = 2; i < 8; ++i) CHECK(r.sizes[i].standing == Standing::Within);
  CHECK(measured_findings({r}).empty());
}

TEST_CASE("measured: Meta's published 4-node DGX H100 sweep passes, and fails with sockets planted on one host") {
  Case c{unit_cluster()};
  c.sizes = {16 * MiB, 128 * MiB, 1 * GiB, 16 * GiB};
  const std::vector<double> published{115, 255, 337, 350};
  RunComparison r = c.compare(write_run(c.hosts, c.sizes, published, healthy(4)));
  for (const SizeCheck& s : r.sizes) CHECK(s.standing == Standing::Within);
  CHECK(measured_findings({r}).empty());
  // What the same job does with one host on TCP: ~one 25 Gb/s-class socket path per node.
  std::vector<HostPlan> plans = healthy(4);
  plans[3].sockets = true;
  r = c.compare(write_run(c.hosts, c.sizes, {9, 11, 11.5, 11.6}, plans));
  REQUIRE(r.below());
  CHECK(r.causes.front().subject == "dgx004");
  CHECK(r.largest_below()->bytes == 16 * GiB);
}

TEST_CASE("measured: a run of other GPUs than the profile's is not predicted, never judged") {
  Case c{unit_cluster()};
  const RunComparison r =
      c.compare(write_run(c.hosts, c.sizes, c.predicted(0.5), healthy(4), 0, "NVIDIA A100-SXM4-80GB"));
  CHECK(r.not_predicted.find("the run's GPUs are NVIDIA A100-SXM4-80GB, profile h100-ndr's H100") == 0);
  CHECK(r.sizes.empty());
  CHECK(measured_findings({r}).empty());
}

// An NVL72 run on two trays of one rack: measured as NCCL runs it with MNNVL (one NCCL node,
// NVLS over the rack's NVLink). With the domains it is within the prediction; without them each
// tray is predicted alone, across the network, and the run would be "above" — a false alarm the
// domains avoid.
TEST_CASE("measured: a GB200 run within one rack is judged against the rack's NVLink only with its domains") {
  const testing::Nvl72Racks& racks = testing::nvl72_racks(2);
  const std::vector<std::string> hosts{"dgx001", "dgx002"};
  const std::vector<double> sizes{1 * GiB, 8 * GiB};
  SimulateOptions o;
  o.sizes = sizes;
  o.nvlink_domains = &racks.domains;
  const HardwareProfile profile = load_profile("gb200-nvl72");
  const Prediction rack = predict(racks.cluster, hosts, profile, o);
  REQUIRE(rack.nvlink_domains == 1);
  const std::string text = write_run(hosts, sizes, {rack.sizes[0].busbw_gbs * 0.97, rack.sizes[1].busbw_gbs * 0.97},
                                     healthy(2), 0, "NVIDIA GB200", 4);
  const std::vector<MeasuredRun> runs =
      join_measured(parse_nccl_tests_output(text, "run.out"), {parse_nccl_log(text, "run.out")});
  NvlinkDomains domains = parse_nvlink_domains(synthetic_nvlink_domains(racks.fabric, 18), "nvl72.domains");

  const MeasuredComparison with = compare_measured(racks.cluster, runs, "gb200-nvl72", nullptr, nullptr,
                                                   RoutingKind::MinHop, &domains);
  REQUIRE(with.runs.size() == 1);
  REQUIRE(with.runs[0].not_predicted == "");
  CHECK(with.runs[0].gpus_per_host == 4);
  for (const SizeCheck& s : with.runs[0].sizes) {
    CHECK(s.standing == Standing::Within);
    CHECK(s.algorithm == "nvls/Simple");
  }
  CHECK_FALSE(has(measured_findings(with.runs), MeasuredKind::Above));

  const MeasuredComparison without =
      compare_measured(racks.cluster, runs, "gb200-nvl72", nullptr, nullptr, RoutingKind::MinHop);
  REQUIRE(without.runs[0].not_predicted == "");
  CHECK(without.runs[0].sizes.back().standing == Standing::Above);
}
