// Replay time of a 10,000-job workload on a 4,096-node cluster, the figure `whatif --workload`
// and `--synthetic` users wait for: FCFS with EASY backfill through Slurm's placement
// emulation (tree from the fabric as `emit topology` writes it), then the slowdown of every
// multi-node job whose nodes differ from the best placement (predicted allreduce busbw at
// 1 GiB, both placements, each distinct placement once, 2 threads).
// Fabric: k=64 3-level fat tree, 4,096 hosts x 8 rails (32,768 HCAs), modelled min-hop
// routing, profile h100-ndr. Workload: synthetic_workload(10000 jobs, seed 1, load 0.9):
// sizes 1-1,024 nodes. Building the cluster, routes and Slurm's tables is outside the timing.
#include <benchmark/benchmark.h>

#include "discover/synthetic_fabric.h"
#include "simulate/whatif/synthetic_workload.h"
#include "simulate/whatif/workload_replay.h"

namespace {

using namespace slurmtopo;

struct Setup {
  WhatifCase c;
  Workload workload;
  Setup() : c(make()), workload(synthetic_workload({10000, 4096, 1, 0.9})) {}
  static WhatifCase make() {
    FatTreeSpec spec;
    spec.levels = 3;
    spec.radix = 64;
    spec.hosts = 4096;
    spec.rails = 8;
    Cluster cluster = build_cluster({generate_fattree(spec)}, ClusterOptions{});
    WhatifSlurm slurm;
    for (const Host& h : cluster.hosts) slurm.nodes.push_back({h.name, 1, 1});
    return make_whatif_case(std::move(cluster), slurm, {});
  }
};

const Setup& setup() {
  static const Setup s;
  return s;
}

void BM_Replay10000Jobs(benchmark::State& state) {
  const Setup& s = setup();
  const bool with_slowdown = state.range(0) != 0;
  ReplayMetrics m;
  size_t predicted = 0;
  for (auto _ : state) {
    PlacementCosts costs(*s.c.fabric, load_profile("h100-ndr"), 1 << 30);
    const Replay r = replay_workload(s.c, s.workload, {}, with_slowdown ? &costs : nullptr);
    m = r.metrics;
    predicted = costs.predicted();
  }
  state.counters["jobs"] = m.started;
  state.counters["predicted_placements"] = static_cast<double>(predicted);
  state.counters["span_leaves"] = m.span_leaves;
  state.SetLabel(with_slowdown ? "schedule + slowdown predictions" : "schedule only");
}
// Wall time is the figure (predictions run on 2 threads).
BENCHMARK(BM_Replay10000Jobs)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

}  // namespace
