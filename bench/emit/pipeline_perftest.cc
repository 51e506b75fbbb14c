// The floor: parse + model + emit for a generated 3-level fat tree of 65,536 hosts
// (k = 64) in under 2 s and 1 GB. The whole pipeline from the ibnetdiscover text in memory,
// then each stage on its own, for that tree and for the default rail-optimized SuperPOD
// (4 SUs x 32 DGX x 8 rails).
//
// Peak RSS: BM_Pipeline* resets the process's high-water mark (/proc/self/clear_refs "5")
// before it starts and reports getrusage()'s ru_maxrss afterwards, so `peak_rss_MB` is the
// most the process held while the pipeline ran, inputs (the text in memory) included, and
// `pipeline_MB` is that peak less what was resident before it. The pipeline benchmarks are
// registered first so that they run before the per-stage fixtures (a parsed Fabric, a built
// Cluster) exist; for the cleanest figure run them alone:
//   slurmtopo_bench --benchmark_filter=Pipeline
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "bench/memory.h"
#include "discover/ibnetdiscover_text.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/synthetic_fabric.h"
#include "emit/topology_plan.h"
#include "graph/cluster.h"
#include "graph/slurm_tree.h"

namespace {

using namespace slurmtopo;


double current_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// Linux ≥ 4.0: makes the high-water mark (and so ru_maxrss) restart from the current RSS.
bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

// One generated fabric as the text a sweep would have saved, built on first use.
struct Input {
  std::string name;
  std::string text;
  size_t hosts = 0, switches = 0, links = 0;
};

Input make_input(const std::string& name, const Fabric& fabric) {
  Input in;
  in.name = name;
  std::ostringstream out;
  write_ibnetdiscover_text(fabric, out);
  in.text = std::move(out).str();
  for (const auto& n : fabric.nodes) in.switches += n.kind == NodeKind::Switch;
  in.links = fabric.links.size();
  return in;
}

const Input& k64() {
  static const Input in = [] {
    FatTreeSpec spec;
    spec.levels = 3;
    spec.radix = 64;  // full tree: 65,536 hosts, 5,120 switches, 196,608 cables
    Input i = make_input("k64.topo", generate_fattree(spec));
    i.hosts = 65536;
    return i;
  }();
  return in;
}

const Input& superpod() {
  static const Input in = [] {
    RailOptimizedSpec spec;  // defaults: 4 SUs x 32 hosts x 8 rails, radix 64
    Input i = make_input("superpod.topo", generate_rail_optimized(spec));
    i.hosts = static_cast<size_t>(spec.scalable_units) * spec.hosts_per_su;
    return i;
  }();
  return in;
}

// Per-stage fixtures, each built once from the one before.
const Fabric& parsed(const Input& in) {
  static std::map<const Input*, Fabric> cache;
  auto it = cache.find(&in);
  if (it == cache.end()) it = cache.emplace(&in, parse_ibnetdiscover_text(in.text, in.name)).first;
  return it->second;
}

const Cluster& cluster(const Input& in) {
  static std::map<const Input*, Cluster> cache;
  auto it = cache.find(&in);
  if (it == cache.end()) it = cache.emplace(&in, build_cluster({parsed(in)}, ClusterOptions{})).first;
  return it->second;
}

void describe(benchmark::State& state, const Input& in) {
  state.counters["text_MB"] = static_cast<double>(in.text.size()) / kMiB;
  state.counters["hosts"] = static_cast<double>(in.hosts);
  state.counters["switches"] = static_cast<double>(in.switches);
  state.counters["cables"] = static_cast<double>(in.links);
}

// --- whole pipeline ---------------------------------------------------------------------

void run_pipeline(benchmark::State& state, const Input& in) {
  const std::string& text = in.text;  // built before the reset: an input, not the pipeline's
  malloc_trim(0);  // hand back what earlier runs freed, so `before` is what is really held
  const double before = current_rss_mb();
  const bool reset = reset_peak_rss();
  size_t bytes = 0;
  for (auto _ : state) {
    std::vector<Fabric> fabrics;
    fabrics.push_back(parse_ibnetdiscover_text(text, in.name));
    Cluster c = build_cluster(std::move(fabrics), ClusterOptions{});
    TopologyPlan plan = plan_topology(c, TopologyRequest{});
    if (!plan.check.ok()) {
      state.SkipWithError(("topology check failed: " + plan.check.errors.front().message).c_str());
      break;
    }
    bytes = plan.text.size();
    benchmark::DoNotOptimize(plan);
  }
  const double peak = peak_rss_mb();
  describe(state, in);
  state.counters["topology_conf_KB"] = static_cast<double>(bytes) / 1024.0;
  state.counters["peak_rss_MB"] = peak;
  state.counters["pipeline_MB"] = reset ? std::max(0.0, peak - before) : 0;
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  if (!reset) state.SetLabel("peak RSS not reset: includes earlier benchmarks");
}

void BM_PipelineK64(benchmark::State& state) { run_pipeline(state, k64()); }
void BM_PipelineSuperPod(benchmark::State& state) { run_pipeline(state, superpod()); }
BENCHMARK(BM_PipelineK64)->Unit(benchmark::kMillisecond)->MinTime(3.0);
BENCHMARK(BM_PipelineSuperPod)->Unit(benchmark::kMillisecond);

// --- stages -----------------------------------------------------------------------------

void run_parse(benchmark::State& state, const Input& in) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_ibnetdiscover_text(in.text, in.name));
  describe(state, in);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(in.text.size()));
}

void run_build_cluster(benchmark::State& state, const Input& in) {
  const Fabric& fabric = parsed(in);
  for (auto _ : state) {
    state.PauseTiming();  // build_cluster takes its fabrics by value; the copy is not its cost
    std::vector<Fabric> fabrics{fabric};
    state.ResumeTiming();
    benchmark::DoNotOptimize(build_cluster(std::move(fabrics), ClusterOptions{}));
  }
  describe(state, in);
}

void run_slurm_tree(benchmark::State& state, const Input& in) {
  const Cluster& c = cluster(in);
  size_t switches = 0;
  for (auto _ : state) {
    SlurmTree tree = build_slurm_tree(c);
    switches = tree.switches.size();
    benchmark::DoNotOptimize(tree);
  }
  describe(state, in);
  state.counters["slurm_switches"] = static_cast<double>(switches);
}

void run_plan_topology(benchmark::State& state, const Input& in) {
  const Cluster& c = cluster(in);
  for (auto _ : state) {
    TopologyPlan plan = plan_topology(c, TopologyRequest{});
    if (!plan.check.ok()) {
      state.SkipWithError("topology check failed");
      break;
    }
    benchmark::DoNotOptimize(plan);
  }
  describe(state, in);
}

void BM_ParseK64(benchmark::State& state) { run_parse(state, k64()); }
void BM_BuildClusterK64(benchmark::State& state) { run_build_cluster(state, k64()); }
void BM_SlurmTreeK64(benchmark::State& state) { run_slurm_tree(state, k64()); }
void BM_PlanTopologyK64(benchmark::State& state) { run_plan_topology(state, k64()); }
BENCHMARK(BM_ParseK64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildClusterK64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SlurmTreeK64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanTopologyK64)->Unit(benchmark::kMillisecond);

void BM_ParseSuperPod(benchmark::State& state) { run_parse(state, superpod()); }
void BM_BuildClusterSuperPod(benchmark::State& state) { run_build_cluster(state, superpod()); }
void BM_SlurmTreeSuperPod(benchmark::State& state) { run_slurm_tree(state, superpod()); }
void BM_PlanTopologySuperPod(benchmark::State& state) { run_plan_topology(state, superpod()); }
BENCHMARK(BM_ParseSuperPod)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BuildClusterSuperPod)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SlurmTreeSuperPod)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanTopologySuperPod)->Unit(benchmark::kMicrosecond);

}  // namespace
