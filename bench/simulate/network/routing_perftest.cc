// The floor for routing: one allreduce's ring flows on 1,024 nodes × 8 GPUs (8 rails,
// all on the host's leaf) of a 3-level k=64 fat tree — 8 channels × 1,024 inter-node flows,
// channel c on rail c, host i → host i+1 — routed and shared (max-min over every cable
// direction) well under 100 ms.
//
// Cold: a fresh Routing each iteration (its FabricIndex, LIDs, the lazy per-destination-switch
// distance searches, and for ftree/lft the tables). Warm: one Routing, caches filled, as a
// simulator predicting many placements on one fabric uses it. The fabric's resource list is
// built once per cluster (BM_FabricResources says what that costs).
#include <benchmark/benchmark.h>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/network/fabric_resources.h"
#include "simulate/network/flow_sharing.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"

namespace {

using namespace slurmtopo;

const Cluster& cluster_1024x8() {
  static const Cluster c = [] {
    std::vector<Fabric> f;
    f.push_back(generate_fattree({.levels = 3, .radix = 64, .hosts = 1024, .rails = 8}));
    return build_cluster(std::move(f), {});
  }();
  return c;
}

const FabricResources& resources() {
  static const FabricResources r = make_fabric_resources(cluster_1024x8());
  return r;
}

const ForwardingTables& minhop_tables() {
  static const ForwardingTables t = compute_minhop_tables(cluster_1024x8());
  return t;
}

std::vector<std::pair<int, int>> ring_flows(const Cluster& c) {
  std::vector<std::pair<int, int>> flows;
  const int n = static_cast<int>(c.hosts.size());
  for (int rail = 0; rail < 8; ++rail)
    for (int i = 0; i < n; ++i) flows.push_back({c.hosts[i].hcas[rail], c.hosts[(i + 1) % n].hcas[rail]});
  return flows;
}

std::unique_ptr<Routing> make(RoutingKind kind) {
  return kind == RoutingKind::Lft ? make_lft_routing(cluster_1024x8(), minhop_tables())
                                  : make_routing(cluster_1024x8(), kind);
}

double route_and_share(const Routing& routing, const std::vector<std::pair<int, int>>& pairs) {
  std::vector<Flow> flows(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i)
    add_path_resources(resources(), routing.route(pairs[i].first, pairs[i].second), flows[i]);
  const Sharing s = max_min_fair(resources().resources, flows);
  double slowest = 1e300;
  for (double r : s.rate) slowest = std::min(slowest, r);
  return slowest;
}

void BM_RingRouteShareCold(benchmark::State& state) {
  const auto kind = static_cast<RoutingKind>(state.range(0));
  const auto pairs = ring_flows(cluster_1024x8());
  resources();
  if (kind == RoutingKind::Lft) minhop_tables();
  double slowest = 0;
  for (auto _ : state) {
    const auto routing = make(kind);
    slowest = route_and_share(*routing, pairs);
  }
  state.SetLabel(to_string(kind));
  state.counters["flows"] = static_cast<double>(pairs.size());
  state.counters["slowest_GBps"] = slowest;
}

void BM_RingRouteShareWarm(benchmark::State& state) {
  const auto kind = static_cast<RoutingKind>(state.range(0));
  const auto pairs = ring_flows(cluster_1024x8());
  resources();
  const auto routing = make(kind);
  route_and_share(*routing, pairs);
  double slowest = 0;
  for (auto _ : state) slowest = route_and_share(*routing, pairs);
  state.SetLabel(to_string(kind));
  state.counters["flows"] = static_cast<double>(pairs.size());
  state.counters["slowest_GBps"] = slowest;
}

void BM_RingRouteOnlyWarm(benchmark::State& state) {
  const auto kind = static_cast<RoutingKind>(state.range(0));
  const auto pairs = ring_flows(cluster_1024x8());
  const auto routing = make(kind);
  for (auto [s, d] : pairs) routing->route(s, d);
  size_t links = 0;
  for (auto _ : state)
    for (auto [s, d] : pairs)
      for (const auto& p : routing->route(s, d)) links += p.links.size();
  benchmark::DoNotOptimize(links);
  state.SetLabel(to_string(kind));
  state.counters["flows"] = static_cast<double>(pairs.size());
}

void BM_FabricResources(benchmark::State& state) {
  const Cluster& c = cluster_1024x8();
  for (auto _ : state) benchmark::DoNotOptimize(make_fabric_resources(c));
  state.counters["resources"] = static_cast<double>(2 * c.fabrics[0].links.size());
}

void BM_ComputeTables(benchmark::State& state) {
  const bool ftree = state.range(0);
  const Cluster& c = cluster_1024x8();
  for (auto _ : state)
    benchmark::DoNotOptimize(ftree ? compute_ftree_tables(c) : compute_minhop_tables(c));
  state.SetLabel(ftree ? "ftree" : "minhop");
}

// The second floor's shape: one 64-node placement (ring over 8 rails: 512 flows) on a
// 4,096-node × 8-rail fabric with a warm Routing, shared over the fabric's full resource list
// (~200,000 cable directions: max_min_fair's O(resources) setup dominates) or over only the
// resources the flows use, renumbered densely (what a simulator making 10,000 predictions
// should pass).
const Cluster& cluster_4096x8() {
  static const Cluster c = [] {
    std::vector<Fabric> f;
    f.push_back(generate_fattree({.levels = 3, .radix = 64, .hosts = 4096, .rails = 8}));
    return build_cluster(std::move(f), {});
  }();
  return c;
}

void BM_Placement64(benchmark::State& state) {
  const bool compact = state.range(0);
  const Cluster& c = cluster_4096x8();
  static const FabricResources all = make_fabric_resources(c);
  const auto routing = make_routing(c, RoutingKind::MinHop);
  // Every 64th host: a placement spread over the whole tree (cross-pod rings).
  std::vector<std::pair<int, int>> pairs;
  for (int rail = 0; rail < 8; ++rail)
    for (int i = 0; i < 64; ++i)
      pairs.push_back({c.hosts[i * 64].hcas[rail], c.hosts[((i + 1) % 64) * 64].hcas[rail]});
  for (auto [s, d] : pairs) routing->route(s, d);  // warm the distance caches
  std::vector<int> dense(all.resources.size(), -1);
  for (auto _ : state) {
    std::vector<Flow> flows(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) add_path_resources(all, routing->route(pairs[i].first, pairs[i].second), flows[i]);
    if (!compact) {
      benchmark::DoNotOptimize(max_min_fair(all.resources, flows));
      continue;
    }
    std::vector<Resource> used;
    std::vector<int> touched;
    for (auto& f : flows)
      for (int& r : f.resources) {
        if (dense[r] < 0) {
          dense[r] = static_cast<int>(used.size());
          used.push_back(all.resources[r]);
          touched.push_back(r);
        }
        r = dense[r];
      }
    benchmark::DoNotOptimize(max_min_fair(used, flows));
    for (int r : touched) dense[r] = -1;
  }
  state.SetLabel(compact ? "used resources only" : "all resources");
  state.counters["flows"] = static_cast<double>(pairs.size());
  state.counters["fabric_resources"] = static_cast<double>(all.resources.size());
}

void kinds(benchmark::internal::Benchmark* b) {
  for (RoutingKind k : {RoutingKind::MinHop, RoutingKind::Lft, RoutingKind::Ftree, RoutingKind::Adaptive})
    b->Arg(static_cast<int>(k));
}

BENCHMARK(BM_RingRouteShareCold)->Apply(kinds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RingRouteShareWarm)->Apply(kinds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RingRouteOnlyWarm)->Apply(kinds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FabricResources)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ComputeTables)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Placement64)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
