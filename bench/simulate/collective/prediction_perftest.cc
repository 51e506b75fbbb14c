// How fast the collective simulator answers, for the README's figures:
//   - one allreduce prediction (six sizes) for 1,024 nodes x 8 GPUs on a 3-level fat tree
//     with table-driven routing (OpenSM min-hop tables walked as LFTs; ftree likewise);
//   - 10,000 predictions of 64-node placements on a 4,096-node fabric, on every core
//     (std::thread; the Cluster and the FabricModel with its routing are shared read-only);
//   - 4,608 GPUs as 64 GB200 NVL72 racks against 576 DGX H100, one prediction each.
// Building the fabric, the cluster and the routing tables happens once, outside the timing
// (BM_BuildFabricModel times that part).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <memory>
#include <random>
#include <thread>

#include "discover/nvlink_domains.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_names.h"
#include "simulate/collective/collective.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/network.h"

namespace {

using namespace slurmtopo;

// k=32, 3 levels, 8 rails per host: 512 leaves of 2 hosts, 1,024 hosts, 8,192 HCAs.
Cluster fat_tree(int radix, int hosts) {
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = radix;
  spec.hosts = hosts;
  spec.rails = 8;
  return build_cluster({generate_fattree(spec)}, ClusterOptions{});
}

std::vector<std::string> names(const Cluster& c, int first, int count, int stride = 1) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(c.hosts[(first + i * stride) % c.hosts.size()].name);
  return out;
}

std::unique_ptr<Routing> table_routing(const Cluster& c, RoutingKind kind) {
  if (kind == RoutingKind::Lft) return make_lft_routing(c, compute_minhop_tables(c));
  return make_routing(c, kind);
}

void BM_Predict1024Nodes(benchmark::State& state) {
  const auto kind = static_cast<RoutingKind>(state.range(0));
  static const Cluster cluster = fat_tree(32, 1024);
  const FabricModel fabric(cluster, table_routing(cluster, kind));
  const HardwareProfile profile = load_profile("h100-ndr");
  const std::vector<std::string> hosts = names(cluster, 0, 1024);
  SimulateOptions options;
  predict(fabric, hosts, profile, options);  // warm the routing's caches
  for (auto _ : state) benchmark::DoNotOptimize(predict(fabric, hosts, profile, options));
  state.SetLabel(to_string(kind));
}
// Wall time is the figure (a large placement solves its ring and tree on two threads); the
// CPU column is the whole process's.
BENCHMARK(BM_Predict1024Nodes)
    ->Arg(static_cast<int>(RoutingKind::Lft))
    ->Arg(static_cast<int>(RoutingKind::Ftree))
    ->Arg(static_cast<int>(RoutingKind::MinHop))
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

void BM_BuildFabricModel(benchmark::State& state) {
  static const Cluster cluster = fat_tree(32, 1024);
  for (auto _ : state) benchmark::DoNotOptimize(FabricModel(cluster, table_routing(cluster, RoutingKind::Lft)));
}
BENCHMARK(BM_BuildFabricModel)->Unit(benchmark::kMillisecond);

// 10,000 placements of 64 nodes anywhere on a 4,096-node k=64 3-level fat tree (8 rails,
// 32,768 HCAs), spread over all hardware threads; min-hop (D-mod-K) routing from its
// forwarding tables (lft) or walked switch by switch (minhop).
void BM_Predict10000Placements(benchmark::State& state) {
  const auto kind = static_cast<RoutingKind>(state.range(0));
  static const Cluster cluster = fat_tree(64, 4096);
  const FabricModel fabric(cluster, table_routing(cluster, kind));
  const HardwareProfile profile = load_profile("h100-ndr");
  SimulateOptions options;
  constexpr int kPlacements = 10000;
  std::vector<std::vector<std::string>> placements;
  std::mt19937 rng(42);
  for (int i = 0; i < kPlacements; ++i) {
    std::vector<int> pick(cluster.hosts.size());
    for (size_t h = 0; h < pick.size(); ++h) pick[h] = static_cast<int>(h);
    std::shuffle(pick.begin(), pick.end(), rng);
    std::vector<std::string> hosts;
    for (int k = 0; k < 64; ++k) hosts.push_back(cluster.hosts[pick[k]].name);
    placements.push_back(std::move(hosts));
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  double busiest_thread_cpu = 0;  // s: what the wall time is on an otherwise idle machine
  for (auto _ : state) {
    std::atomic<int> next{0};
    std::atomic<double> checksum{0};
    std::vector<double> cpu(threads, 0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        double sum = 0;
        for (int i; (i = next.fetch_add(1)) < kPlacements;)
          sum += predict(fabric, placements[i], profile, options).sizes.back().busbw_gbs;
        checksum.fetch_add(sum);
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        cpu[t] = ts.tv_sec + ts.tv_nsec * 1e-9;
      });
    for (auto& th : pool) th.join();
    benchmark::DoNotOptimize(checksum.load());
    busiest_thread_cpu = *std::max_element(cpu.begin(), cpu.end());
  }
  state.counters["threads"] = threads;
  state.counters["placements"] = kPlacements;
  state.counters["busiest_thread_cpu_s"] = busiest_thread_cpu;
  state.SetLabel(to_string(kind));
}
// Wall time is the figure; busiest_thread_cpu_s is what it would be with the cores to itself.
BENCHMARK(BM_Predict10000Placements)
    ->Arg(static_cast<int>(RoutingKind::Lft))
    ->Arg(static_cast<int>(RoutingKind::MinHop))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// The same GPU count two ways: 64 GB200 NVL72 racks (1,152 trays x 4 GPUs, 4 rails, their
// NVLink domains) against 576 DGX H100 (8 GPUs, 8 rails); one allreduce prediction of six sizes
// over all 4,608 GPUs. The NVL72 placement is fused into 64 NCCL nodes of 72 GPUs first.
struct GpuCluster {
  Cluster cluster;
  HostDomains domains;
};

GpuCluster rail_optimized(int units, int hosts_per_unit, int rails, int per_domain) {
  RailOptimizedSpec spec;
  spec.scalable_units = units;
  spec.hosts_per_su = hosts_per_unit;
  spec.rails = rails;
  const Fabric f = generate_rail_optimized(spec);
  GpuCluster out{build_cluster({f}, ClusterOptions{}), {}};
  if (per_domain > 1) out.domains = host_domains(parse_nvlink_domains(synthetic_nvlink_domains(f, per_domain), "bench"));
  return out;
}

void predict_all(benchmark::State& state, const GpuCluster& c, const char* profile_name, bool domains) {
  const FabricModel fabric(c.cluster, RoutingKind::MinHop);
  const HardwareProfile profile = load_profile(profile_name);
  std::vector<std::string> hosts;
  for (const Host& h : c.cluster.hosts) hosts.push_back(h.name);
  SimulateOptions options;
  if (domains) options.nvlink_domains = &c.domains;
  predict(fabric, hosts, profile, options);  // warm the routing's caches
  for (auto _ : state) benchmark::DoNotOptimize(predict(fabric, hosts, profile, options));
  state.counters["gpus"] = static_cast<double>(hosts.size()) * profile.gpus_per_node;
}

void BM_PredictNvl72_64Racks(benchmark::State& state) {
  static const GpuCluster c = rail_optimized(64, 18, 4, 18);
  predict_all(state, c, "gb200-nvl72", true);
}
BENCHMARK(BM_PredictNvl72_64Racks)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

void BM_PredictDgxH100_576Nodes(benchmark::State& state) {
  static const GpuCluster c = rail_optimized(18, 32, 8, 1);
  predict_all(state, c, "h100-ndr", false);
}
BENCHMARK(BM_PredictDgxH100_576Nodes)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
