// `report --measured DIR` on the SuperPOD sample (samples/README.md lists its faults): runs
// written in nccl-tests' and NCCL's formats from the prediction itself (tests/simulate/measured/
// nccl_text.h) — a healthy one, one with sockets on a host, one over dgx005's miscabled rail —
// decide performance.measured, name their causes, and reach every rendering.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/commission.h"
#include "simulate/collective/collective.h"
#include "simulate/measured/probe_manifest.h"
#include "tests/report/commission_fixture.h"
#include "tests/simulate/measured/nccl_text.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

constexpr double kMiB = 1048576.0;

const CommissionReport& measured_report() {
  static const CommissionReport r = [] {
    CommissionRequest req = superpod_request();
    const std::string dir = "/tmp/slurmtopo-measured-test-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    const Cluster cluster = load_cluster(req.inputs);
    const HardwareProfile profile = load_profile("h100-ndr");
    const std::vector<double> sizes{64 * kMiB, 256 * kMiB, 1024 * kMiB, 8192 * kMiB};
    auto write = [&](const std::string& name, const std::vector<std::string>& hosts, double factor,
                     std::vector<HostPlan> plans) {
      SimulateOptions o;
      o.sizes = sizes;
      std::vector<double> busbw;
      for (const auto& s : predict(cluster, hosts, profile, o).sizes) busbw.push_back(s.busbw_gbs * factor);
      std::ofstream(dir + "/" + name) << write_run(hosts, sizes, busbw, plans);
    };
    write("01-healthy.out", {"dgx001", "dgx002", "dgx003", "dgx004"}, 0.97, std::vector<HostPlan>(4));
    std::vector<HostPlan> sockets(4);
    sockets[1].sockets = true;
    write("02-sockets.out", {"dgx017", "dgx018", "dgx019", "dgx020"}, 0.3, sockets);
    write("03-miscabled.out", {"dgx005", "dgx006", "dgx007", "dgx008"}, 0.6, std::vector<HostPlan>(4));
    write("04-dgx010.out", {"dgx009", "dgx010", "dgx011", "dgx012"}, 0.7, std::vector<HostPlan>(4));
    // As a probe's directory: its manifest names the healthy run's step and one that never ran.
    ProbePlan probe;
    probe.placements.push_back({"01-healthy", ProbeKind::Group, {"su1"}, {"dgx001", "dgx002", "dgx003", "dgx004"},
                                "dgx[001-004]", "/cluster/probe/01-healthy.out"});
    probe.placements.push_back({"09-all", ProbeKind::All, {"su1", "su2"}, {"dgx001", "dgx017"}, "dgx[001,017]",
                                "/cluster/probe/09-all.out"});
    std::ofstream(dir + "/probe.json") << probe_manifest_json(probe);
    req.measured = dir;
    CommissionReport out = plan_commission(req);
    std::filesystem::remove_all(dir);
    return out;
  }();
  return r;
}

const Finding* finding(const CommissionReport& r, const std::string& kind, const std::string& subject) {
  for (const Finding& f : r.findings)
    if (f.kind == kind && f.subject == subject) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("report measured: performance.measured fails on the slow runs and names each cause") {
  const CommissionReport& r = measured_report();
  REQUIRE(r.measured);
  REQUIRE(r.measured->runs.size() == 4);
  const Check* c = find_check(r, "performance.measured");
  REQUIRE(c);
  CHECK(c->verdict == Verdict::Fail);
  CHECK(r.verdict == Verdict::Fail);
  // The healthy run: within at every claimed size, no finding.
  for (const SizeCheck& s : r.measured->runs[0].sizes) CHECK(s.standing == Standing::Within);
  CHECK(!finding(r, "below-prediction", "dgx[001-004] all_reduce"));
  // Its ranks sent through their GPUs' nearest HCAs (the node exports'): no cause at all.
  CHECK(r.measured->runs[0].causes.empty());
  // Sockets on dgx018, first among the causes, and a finding of its own.
  const Finding* slow = finding(r, "below-prediction", "dgx[017-020] all_reduce");
  REQUIRE(slow);
  CHECK(slow->detail.find("likely cause: dgx018: NCCL used network Socket") != std::string::npos);
  CHECK(finding(r, "socket-fallback", "dgx018"));
  // dgx005's HCA on the other unit's leaf: nothing in the log; the node join's rail-leaf (GPU 3
  // lands on su2-rail3) comes first, the fabric's miscabled-rail after it.
  const Finding* miscabled = finding(r, "below-prediction", "dgx[005-008] all_reduce");
  REQUIRE(miscabled);
  CHECK(miscabled->detail.find("likely cause: rail-leaf dgx005: GPU 3 \u2192 mlx5_3") != std::string::npos);
  const auto& causes = r.measured->runs[2].causes;
  REQUIRE(causes.size() == 2);
  CHECK(causes[0].order == 4);
  CHECK(causes[1].order == 6);
  CHECK(causes[1].detail.find("miscabled-rail dgx005: mlx5_3 is cabled to su2-rail3") == 0);
  // dgx010's NICs for rails 2 and 3 sit on each other's GPU's PCIe switch: a log whose GPU 2
  // sends through mlx5_2 crossed the node's PCIe to get there.
  const auto& dgx010 = r.measured->runs[3].causes;
  REQUIRE(!dgx010.empty());
  CHECK(dgx010.front().order == 3);
  CHECK(dgx010.front().subject == "dgx010");
  CHECK(dgx010.front().detail.find("dgx010 rank 10 (GPU 2, 0000:52:00.0) sent through mlx5_2, its nearest is mlx5_3") !=
        std::string::npos);
  CHECK(finding(r, "hca-not-nearest", "dgx010"));
}

TEST_CASE("report measured: the JSON, Markdown and HTML carry every run") {
  const CommissionReport& r = measured_report();
  const std::string json = commission_json(r);
  CHECK(json.find("\"measured\": {") != std::string::npos);
  CHECK(json.find("\"standing\": \"below\"") != std::string::npos);
  const std::string md = commission_markdown(r);
  CHECK(md.find("## Measured against predicted") != std::string::npos);
  CHECK(md.find("### all_reduce on dgx[017-020], 32 GPUs") != std::string::npos);
  const std::string html = commission_html(r);
  CHECK(html.find("<section id=\"measured\">") != std::string::npos);
  CHECK(html.find("id=\"measured-chart-2\"") != std::string::npos);
  CHECK(html.find("class=\"measured below\"") != std::string::npos);
  CHECK(html.find("<a href=\"#measured\">Measured</a>") != std::string::npos);
  // The performance section's curves are other placements: it points at the runs' own charts.
  CHECK(html.find("<p class=\"measured-link\">4 measured runs are charted against the prediction for their own hosts") !=
        std::string::npos);
}

TEST_CASE("report measured: a probe's directory shows each placement and what its step left") {
  const CommissionReport& r = measured_report();
  REQUIRE(r.measured->probe_steps.size() == 2);
  CHECK(r.measured->probe_steps[0].state == StepState::Measured);
  CHECK(r.measured->runs[r.measured->probe_steps[0].run].hostlist == "dgx[001-004]");
  CHECK(r.measured->probe_steps[1].state == StepState::NoOutput);
  const Finding* missing = finding(r, "probe-step-unmeasured", "09-all");
  REQUIRE(missing);
  CHECK(missing->detail.find("no 09-all.out: the step never ran") != std::string::npos);
  CHECK(!finding(r, "probe-step-unmeasured", "01-healthy"));
  const std::string html = commission_html(r);
  CHECK(html.find("The probe's placements (probe.json) and what each step left in its output") != std::string::npos);
  const std::string md = commission_markdown(r);
  CHECK(md.find("| 01-healthy | group | dgx[001-004] | measured | within |") != std::string::npos);
  CHECK(md.find("| 09-all | all | dgx[001,017] | no output | - |") != std::string::npos);
  const std::string json = commission_json(r);
  CHECK(json.find("\"probe_steps\": [") != std::string::npos);
  CHECK(json.find("\"state\": \"no output\"") != std::string::npos);
}
