// Hostlists at the size of a large cluster: 65,536 names, the most one Slurm range holds.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "slurm/hostlist.h"

namespace {

constexpr int kHostlistNodes = 65536;

// 256 racks x 256 nodes, shuffled, so compress pays for its sort.
std::vector<std::string> rack_names() {
  std::vector<std::string> names = slurmtopo::expand_hostlist("rack[000-255]-n[000-255]");
  std::shuffle(names.begin(), names.end(), std::mt19937(42));
  return names;
}

void BM_ExpandOneRange(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(slurmtopo::expand_hostlist("gpu[00000-65535]"));
  state.SetItemsProcessed(state.iterations() * kHostlistNodes);
}

void BM_ExpandTwoGroups(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(slurmtopo::expand_hostlist("rack[000-255]-n[000-255]"));
  state.SetItemsProcessed(state.iterations() * kHostlistNodes);
}

void BM_CompressShuffled(benchmark::State& state) {
  const std::vector<std::string> names = rack_names();
  for (auto _ : state) benchmark::DoNotOptimize(slurmtopo::compress_hostlist(names));
  state.SetItemsProcessed(state.iterations() * kHostlistNodes);
}

// Every other node: 32,768 single-number ranges in the output.
void BM_CompressFragmented(benchmark::State& state) {
  std::vector<std::string> names;
  for (int i = 0; i < 2 * kHostlistNodes; i += 2) names.push_back("gpu" + std::to_string(i));
  for (auto _ : state) benchmark::DoNotOptimize(slurmtopo::compress_hostlist(names));
  state.SetItemsProcessed(state.iterations() * kHostlistNodes);
}

void BM_NaturalSort(benchmark::State& state) {
  const std::vector<std::string> names = rack_names();
  for (auto _ : state) {
    std::vector<std::string> copy = names;
    std::sort(copy.begin(), copy.end(), slurmtopo::natural_less);
    benchmark::DoNotOptimize(copy);
  }
  state.SetItemsProcessed(state.iterations() * kHostlistNodes);
}

}  // namespace

BENCHMARK(BM_ExpandOneRange)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExpandTwoGroups)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompressShuffled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompressFragmented)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NaturalSort)->Unit(benchmark::kMillisecond);
