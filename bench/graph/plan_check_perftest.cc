// Issue 28's scale floor: the plan check of a 100,000-host fabric against its plan in under
// 5 s and 4 GB. The fabric is BM_Report100000's (3-level fat tree, NDR switches with split 2x
// ports) with a technician's faults (two host cables swapped on the first leaf, two between the
// first and second leaves: every leaf's ports are cabled); its plan is the cable list of the fabric as generated (`generate --format plan`).
// Both are written once to temp files; each iteration is `slurmtopo inspect --fabric F --plan P`'s
// work: read both, model the fabric, compare every cable. Counters: cables (planned), findings,
// peak_rss_MB (the whole process, generation included).
//   slurmtopo_bench --benchmark_filter=PlanCheck
#include <benchmark/benchmark.h>


#include <filesystem>
#include <fstream>
#include <string>

#include "bench/memory.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_faults.h"
#include "graph/cluster_cables.h"
#include "graph/cluster_inputs.h"

namespace {

using namespace slurmtopo;

struct Files {
  std::string fabric, plan;
};

const Files& files() {
  static const Files f = [] {
    FatTreeSpec spec;
    spec.levels = 3;
    spec.radix = 128;
    spec.width = 2;
    spec.hosts = 100000;
    const Fabric planned = generate_fattree(spec);
    Fabric today = planned;
    Faults faults;
    faults.swap_cables = {{{"leaf0001", 1}, {"leaf0001", 2}}, {{"leaf0001", 3}, {"leaf0002", 3}}};
    apply_faults(today, faults);
    const auto dir = std::filesystem::temp_directory_path();
    Files out{(dir / "slurmtopo_bench_plan_100k.topo").string(), (dir / "slurmtopo_bench_plan_100k.csv").string()};
    std::ofstream(out.plan) << cable_list_of({planned}, "bench plan");
    std::ofstream fabric(out.fabric);
    write_ibnetdiscover_text(today, fabric);
    return out;
  }();
  return f;
}

void BM_PlanCheck100000(benchmark::State& state) {
  ClusterInputs inputs;
  inputs.fabric_files = {files().fabric};
  inputs.plan_files = {files().plan};
  int planned = 0, findings = 0;
  for (auto _ : state) {
    const Cluster c = load_cluster(inputs);
    planned = c.plan_checks.at(0).planned;
    findings = c.plan_checks.at(0).findings;
    benchmark::DoNotOptimize(c);
  }
  state.counters["cables"] = planned;
  state.counters["findings"] = findings;
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

// The same without the plan: what the comparison adds is the difference.
void BM_PlanCheck100000_FabricOnly(benchmark::State& state) {
  ClusterInputs inputs;
  inputs.fabric_files = {files().fabric};
  for (auto _ : state) benchmark::DoNotOptimize(load_cluster(inputs));
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

}  // namespace

BENCHMARK(BM_PlanCheck100000_FabricOnly)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_PlanCheck100000)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();
