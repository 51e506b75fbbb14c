// How fast the ibnetdiscover reader is on the size that matters: a 65,536-host fabric, which
// the whole pipeline must handle in under 2 s. The dump is built in-process (generator below)
// and written with write_ibnetdiscover_text, so it has the modern layout; with short names it
// is 31 MB (a real one, with longer descriptions and SHARP nodes, is ~40 MB).
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

#include "discover/ibnetdiscover_text.h"
#include "discover/ibnetdiscover_writer.h"

namespace {

using namespace slurmtopo;

// 2,048 leaves of 32 hosts and 32 uplinks each; spines in 32 groups of 32, spine (g, u) taking
// uplink u of the 64 leaves of group g, so every switch has 64 cabled ports as on a Quantum-2.
Fabric two_tier_fabric(int leaves, int hosts_per_leaf, int uplinks) {
  constexpr uint64_t kLeafBase = 0xb83fd20300a00000, kSpineBase = 0xb83fd20300b00000,
                     kHostBase = 0xb83fd20300c00000;
  const int leaves_per_group = 64;
  Fabric f;
  f.name = "bench";
  uint16_t lid = 1;
  auto add = [&](NodeKind kind, uint64_t guid, int ports, std::string desc, uint32_t device) {
    FabricNode n;
    n.kind = kind;
    n.guid = guid;
    n.sysimgguid = guid;
    n.num_ports = ports;
    n.description = std::move(desc);
    n.lid = lid++;
    n.vendor_id = 0x2c9;
    n.device_id = device;
    f.nodes.push_back(std::move(n));
    return f.nodes.back().lid;
  };
  int groups = (leaves + leaves_per_group - 1) / leaves_per_group;
  for (int g = 0; g < groups; ++g)
    for (int u = 0; u < uplinks; ++u) {
      int s = g * uplinks + u;
      add(NodeKind::Switch, kSpineBase + 16 * s, 65, "MF0;spine" + std::to_string(s) + ":MQM9700/U1", 0xd2f2);
    }
  for (int l = 0; l < leaves; ++l) {
    uint64_t leaf = kLeafBase + 16 * l;
    uint16_t leaf_lid = add(NodeKind::Switch, leaf, 65, "MF0;leaf" + std::to_string(l) + ":MQM9700/U1", 0xd2f2);
    for (int h = 0; h < hosts_per_leaf; ++h) {
      uint64_t hca = kHostBase + 16 * (static_cast<uint64_t>(l) * hosts_per_leaf + h);
      std::string host = "gpu" + std::to_string(l * hosts_per_leaf + h);
      uint16_t hca_lid = add(NodeKind::Ca, hca, 1, host + " mlx5_0", 0x1021);
      f.links.push_back({{leaf, h + 1, 0, leaf_lid}, {hca, 1, hca, hca_lid}, 4, LinkSpeed::NDR});
    }
    for (int u = 0; u < uplinks; ++u) {
      int s = (l / leaves_per_group) * uplinks + u;
      uint64_t spine = kSpineBase + 16 * s;
      uint16_t spine_lid = static_cast<uint16_t>(s + 1);
      f.links.push_back({{leaf, hosts_per_leaf + u + 1, 0, leaf_lid},
                         {spine, l % leaves_per_group + 1, 0, spine_lid}, 4, LinkSpeed::NDR});
    }
  }
  normalize(f);
  return f;
}

const std::string& dump_65k_hosts() {
  static const std::string text = [] {
    std::ostringstream out;
    write_ibnetdiscover_text(two_tier_fabric(2048, 32, 32), out);
    return out.str();
  }();
  return text;
}

void BM_ParseIbnetdiscover65kHosts(benchmark::State& state) {
  const std::string& text = dump_65k_hosts();
  size_t links = 0;
  for (auto _ : state) {
    Fabric f = parse_ibnetdiscover_text(text, "bench.topo");
    links = f.links.size();
    benchmark::DoNotOptimize(f);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["cables"] = static_cast<double>(links);
}
BENCHMARK(BM_ParseIbnetdiscover65kHosts)->Unit(benchmark::kMillisecond)->MinTime(3.0);

void BM_WriteIbnetdiscover65kHosts(benchmark::State& state) {
  Fabric f = two_tier_fabric(2048, 32, 32);
  size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    write_ibnetdiscover_text(f, out);
    bytes = out.str().size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_WriteIbnetdiscover65kHosts)->Unit(benchmark::kMillisecond);

}  // namespace
