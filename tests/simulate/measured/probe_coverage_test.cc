// What came back of a probe: its placements written as DIR/probe.json with the script, read back,
// and each step judged by what its output holds (measured, cut short, other hosts, no run, no
// output), with a probe-step-unmeasured finding for every step that is not measured.
#include "simulate/measured/probe_coverage.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/measured/measured_findings.h"
#include "simulate/measured/measured_simulation.h"
#include "simulate/measured/probe_manifest.h"
#include "tests/simulate/measured/nccl_text.h"

using namespace slurmtopo;
using slurmtopo::testing::HostPlan;
using slurmtopo::testing::write_run;

namespace {

Cluster three_sus() {
  RailOptimizedSpec spec;
  spec.scalable_units = 3;
  spec.hosts_per_su = 2;
  spec.rails = 8;
  return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
}

// One per test case: CTest runs the cases side by side.
struct ProbeDir {
  std::filesystem::path dir;
  explicit ProbeDir(const std::string& name) : dir(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(dir);
  }
  ~ProbeDir() { std::filesystem::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
};

std::string run_on(const std::vector<std::string>& hosts) {
  const double MiB = 1048576.0;
  return write_run(hosts, {16 * MiB, 256 * MiB}, {100, 300}, std::vector<HostPlan>(hosts.size()));
}

}  // namespace

TEST_CASE("probe coverage: each step by what its output holds, a finding for each one not measured") {
  const Cluster c = three_sus();
  ProbeDir d("slurmtopo-probe-coverage");
  ProbeRequest r;
  r.nodes = "dgx[001-006]";
  r.out_dir = d.dir.string();
  const ProbePlan plan = plan_probe(c, r);
  write_probe_script(plan);
  // The manifest reads back as the plan's placements.
  const auto placements = read_probe_manifest(d.dir.string());
  REQUIRE(placements);
  REQUIRE(placements->size() == plan.placements.size());
  REQUIRE(placements->size() == 7);  // 3 groups, 3 pairs, rails, all
  for (size_t i = 0; i < placements->size(); ++i) {
    CHECK((*placements)[i].name == plan.placements[i].name);
    CHECK((*placements)[i].hosts == plan.placements[i].hosts);
    CHECK((*placements)[i].hostlist == plan.placements[i].hostlist);
    CHECK((*placements)[i].kind == plan.placements[i].kind);
  }
  const auto& p = plan.placements;
  auto file = [](const ProbePlacement& x) { return std::filesystem::path(x.output).filename().string(); };
  d.write(file(p[0]), run_on(p[0].hosts));                        // measured
  std::string cut = run_on(p[1].hosts);
  d.write(file(p[1]), cut.substr(0, cut.find("# Out of bounds")));  // cut short
  d.write(file(p[2]), run_on({p[0].hosts}));                      // other hosts
  d.write(file(p[3]), "srun: error: Unable to create step for job 42: Invalid node name specified\n");  // no run
  for (size_t i = 4; i < p.size() - 1; ++i) d.write(file(p[i]), run_on(p[i].hosts));
  // p.back() (all): never ran.
  const MeasuredComparison m = compare_measured(c, read_measured(d.dir.string()), "h100-ndr", nullptr, nullptr,
                                                RoutingKind::MinHop);
  const std::vector<ProbeStep> steps = probe_coverage(d.dir.string(), *placements, m.runs);
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].state == StepState::Measured);
  CHECK(steps[0].run >= 0);
  CHECK(m.runs[steps[0].run].hosts == p[0].hosts);
  CHECK(steps[1].state == StepState::CutShort);
  CHECK(steps[2].state == StepState::OtherHosts);
  CHECK(steps[2].detail == "ran on " + p[0].hostlist);
  CHECK(steps[3].state == StepState::NoRun);
  CHECK(steps[3].detail == "srun: error: Unable to create step for job 42: Invalid node name specified");
  for (size_t i = 4; i < 6; ++i) CHECK(steps[i].state == StepState::Measured);
  CHECK(steps[6].state == StepState::NoOutput);
  const std::vector<MeasuredFinding> f = probe_step_findings(steps);
  REQUIRE(f.size() == 4);
  CHECK(f[0].subject == p[1].name);
  CHECK(f[1].subject == p[2].name);
  CHECK(f[2].subject == p[3].name);
  CHECK(f[2].detail.find("it starts \"srun: error: Unable to create step") != std::string::npos);
  CHECK(f[3].subject == p[6].name);
  CHECK(f[3].detail.find(": no " + file(p[6]) + ": the step never ran") != std::string::npos);
  for (const MeasuredFinding& x : f) CHECK(measured_kind(x.kind).severity == Severity::Warn);
  // Every step measured: no finding at all.
  d.write(file(p[1]), run_on(p[1].hosts));
  d.write(file(p[2]), run_on(p[2].hosts));
  d.write(file(p[3]), run_on(p[3].hosts));
  d.write(file(p[6]), run_on(p[6].hosts));
  const MeasuredComparison all = compare_measured(c, read_measured(d.dir.string()), "h100-ndr", nullptr, nullptr,
                                                  RoutingKind::MinHop);
  CHECK(probe_step_findings(probe_coverage(d.dir.string(), *placements, all.runs)).empty());
}

TEST_CASE("probe manifest: none outside a probe's directory, a bad one is file:line") {
  ProbeDir d("slurmtopo-probe-manifest");
  std::filesystem::create_directories(d.dir);
  CHECK(!read_probe_manifest(d.dir.string()));
  CHECK(!read_probe_manifest((d.dir / "no-such").string()));
  d.write("probe.json", "{\n  \"version\": 1,\n  \"placements\": [\n    {\"name\": \"01-group-su1\", \"kind\": \"tree\", "
                        "\"groups\": [], \"hosts\": [], \"output\": \"x.out\"}\n  ]\n}\n");
  try {
    read_probe_manifest(d.dir.string());
    FAIL("a bad kind was read");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find((d.dir / "probe.json").string() + ":4") != std::string::npos);
    CHECK(what.find("\"kind\" to be group, pair, rails or all") != std::string::npos);
  }
}
