// Placements per second on a 4,096-node cluster: 128 leaves of 32 nodes in 8 pods of 16
// leaves under one root (what-if sweeps and workload replay call place() for every job, for
// the nodes only: BM_PlaceTree4096_NodesOnly).
// Each iteration places one job of a random size (1-256 nodes) on one of 64 random busy
// states (10-70 % of the nodes busy).
#include <benchmark/benchmark.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "simulate/scheduler/slurm_select.h"

namespace {

using namespace slurmtopo;

constexpr int kNodes = 4096, kLeaves = 128, kPods = 8, kStates = 64;

std::string name(int i) {
  std::string s = std::to_string(i);
  return "gpu" + std::string(4 - s.size(), '0') + s;
}

std::string tree_conf() {
  std::ostringstream out;
  const int per_leaf = kNodes / kLeaves, per_pod = kLeaves / kPods;
  for (int l = 0; l < kLeaves; ++l)
    out << "SwitchName=leaf" << l << " Nodes=gpu[" << name(l * per_leaf).substr(3) << "-"
        << name(l * per_leaf + per_leaf - 1).substr(3) << "]\n";
  for (int p = 0; p < kPods; ++p) {
    out << "SwitchName=pod" << p << " Switches=";
    for (int l = 0; l < per_pod; ++l) out << (l ? "," : "") << "leaf" << p * per_pod + l;
    out << "\n";
  }
  out << "SwitchName=root Switches=pod[0-" << kPods - 1 << "]\n";
  return out.str();
}

SlurmSelect make(bool topology, TopologyParams params, SlurmVersion version) {
  SelectSetup s;
  for (int i = 0; i < kNodes; ++i) s.nodes.push_back({name(i), i % 7 == 0 ? 10u : 1u, 64});
  if (topology) s.tree = parse_topology_conf(tree_conf(), "bench.conf");
  s.params = params;
  s.version = version;
  return SlurmSelect(std::move(s));
}

struct Load {
  std::vector<std::vector<char>> busy;
  std::vector<int> sizes;
  Load() {
    std::mt19937 rng(7);
    for (int s = 0; s < kStates; ++s) {
      std::vector<char> b(kNodes, 0);
      const double share = 0.1 + 0.6 * s / kStates;
      for (auto& x : b) x = std::uniform_real_distribution<>(0, 1)(rng) < share;
      busy.push_back(std::move(b));
    }
    for (int i = 0; i < 997; ++i) sizes.push_back(std::uniform_int_distribution<>(1, 256)(rng));
  }
};

void run(benchmark::State& state, const SlurmSelect& select, SelectDetail detail = SelectDetail::Explained) {
  static const Load load;
  size_t i = 0;
  int64_t started = 0;
  for (auto _ : state) {
    SelectJob job;
    job.nodes = load.sizes[i % load.sizes.size()];
    job.exclusive = true;
    SelectResult r = select.place(job, load.busy[i % kStates], detail);
    started += r.started;
    benchmark::DoNotOptimize(r);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["started"] = benchmark::Counter(static_cast<double>(started) / static_cast<double>(state.iterations()));
}

void BM_PlaceTree4096(benchmark::State& state) {
  static const SlurmSelect select = make(true, {}, SlurmVersion::V22_05);
  run(state, select);
}

// What what-if sweeps and the workload replay call: the nodes, no names or explanation.
void BM_PlaceTree4096_NodesOnly(benchmark::State& state) {
  static const SlurmSelect select = make(true, {}, SlurmVersion::V22_05);
  run(state, select, SelectDetail::NodesOnly);
}

void BM_PlaceTree4096_v24_05(benchmark::State& state) {  // 24.05.3+: 24.11 and 25.05 too
  static const SlurmSelect select = make(true, {}, SlurmVersion::V24_05);
  run(state, select);
}

void BM_PlaceTree4096_v26_05(benchmark::State& state) {
  static const SlurmSelect select = make(true, {}, SlurmVersion::V26_05);
  run(state, select);
}

void BM_PlaceDragonfly4096(benchmark::State& state) {
  static const SlurmSelect select = make(true, {true, false}, SlurmVersion::V22_05);
  run(state, select);
}

void BM_PlaceNoTopology4096(benchmark::State& state) {
  static const SlurmSelect select = make(false, {}, SlurmVersion::V22_05);
  run(state, select);
}

void BM_BuildTables4096(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(make(true, {}, SlurmVersion::V22_05));
}

}  // namespace

BENCHMARK(BM_PlaceTree4096);
BENCHMARK(BM_PlaceTree4096_NodesOnly);
BENCHMARK(BM_PlaceTree4096_v24_05);
BENCHMARK(BM_PlaceTree4096_v26_05);
BENCHMARK(BM_PlaceDragonfly4096);
BENCHMARK(BM_PlaceNoTopology4096);
BENCHMARK(BM_BuildTables4096)->Unit(benchmark::kMillisecond);
