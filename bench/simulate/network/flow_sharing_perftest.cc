// Max-min fair sharing at the size the simulator needs: 100,000 flows crossing ~6 resources
// each (host link, leaf uplink, spine downlink, … and the NIC/PCIe/NVLink ones), over 20,000
// resources, in tens of milliseconds. Random instances with a fixed seed: resource choice
// uniform, capacities 10-60 GB/s, a quarter of the flows demand-capped, a quarter split (0.5
// weights) as adaptive routing does.
#include <benchmark/benchmark.h>

#include <random>

#include "simulate/network/flow_sharing.h"

namespace {

using namespace slurmtopo;

struct Instance {
  std::vector<Resource> resources;
  std::vector<Flow> flows;
};

Instance make_instance(int flows, int resources, int per_flow) {
  std::mt19937 rng(42);
  Instance in;
  in.resources.resize(resources);
  for (auto& r : in.resources) r.capacity = 10.0 + static_cast<double>(rng() % 51);
  in.flows.resize(flows);
  for (auto& f : in.flows) {
    for (int i = 0; i < per_flow; ++i) {
      int r;
      do r = static_cast<int>(rng() % resources);
      while (std::find(f.resources.begin(), f.resources.end(), r) != f.resources.end());
      f.resources.push_back(r);
    }
    if (rng() % 4 == 0) f.weights.assign(per_flow, 0.5);
    if (rng() % 4 == 0) f.demand = 1.0 + static_cast<double>(rng() % 20);
  }
  return in;
}

void BM_MaxMinFair(benchmark::State& state) {
  const Instance in = make_instance(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 6);
  for (auto _ : state) benchmark::DoNotOptimize(max_min_fair(in.resources, in.flows));
  state.counters["flows"] = static_cast<double>(in.flows.size());
  state.counters["resources"] = static_cast<double>(in.resources.size());
}

BENCHMARK(BM_MaxMinFair)
    ->Args({10'000, 2'000})
    ->Args({100'000, 20'000})
    ->Args({100'000, 200'000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
