// How long the largest fabric the other benchmarks start from takes to build: the full
// k=64 3-level fat tree (65,536 hosts, 5,120 switches, 196,608 cables; with SHARP also
// 5,120 aggregation nodes).
#include <benchmark/benchmark.h>

#include "discover/synthetic_fabric.h"

namespace {

void BM_GenerateFatTree3LevelK64(benchmark::State& state) {
  slurmtopo::FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 64;
  spec.sharp = state.range(0) != 0;
  size_t links = 0;
  for (auto _ : state) {
    slurmtopo::Fabric fabric = slurmtopo::generate_fattree(spec);
    links = fabric.links.size();
    benchmark::DoNotOptimize(fabric);
  }
  state.counters["links"] = static_cast<double>(links);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(links));
}
BENCHMARK(BM_GenerateFatTree3LevelK64)
    ->ArgName("sharp")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void BM_GenerateRailOptimizedSuperPod(benchmark::State& state) {
  slurmtopo::RailOptimizedSpec spec;  // 4 SUs x 32 DGX x 8 rails
  spec.storage_switch = true;
  spec.sharp = true;
  for (auto _ : state) benchmark::DoNotOptimize(slurmtopo::generate_rail_optimized(spec));
}
BENCHMARK(BM_GenerateRailOptimizedSuperPod)->Unit(benchmark::kMillisecond);

}  // namespace
