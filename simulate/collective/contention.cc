#include "simulate/collective/contention.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <map>
#include <thread>

#include "simulate/collective/network_stage.h"
#include "simulate/collective/node_stage.h"

namespace slurmtopo {

namespace {

// Channel c runs on rail c mod K; channels of one rail (and tree) behave alike, so each
// group becomes one flow standing for all of them.
std::vector<int> channels_per_rail(const Layout& l) {
  std::vector<int> n(l.rails, 0);
  for (int c = 0; c < l.channels; ++c) ++n[c % l.rails];
  return n;
}

// The slower of two stages a channel passes through (both when they tie).
struct Combined {
  double rate = kInf, free_rate = kInf;
  std::vector<Bottleneck> bottlenecks;
  int bottleneck_count = 0;
};

Combined combine(const Solved& node, const Solved& net, double net_free_rate) {
  Combined c;
  c.rate = std::min(node.rate, net.rate);
  c.free_rate = std::min(node.rate, net_free_rate);
  const double tie = c.rate * (1 + kSlowestTie);
  if (net.rate <= tie) {
    c.bottlenecks = net.bottlenecks;
    c.bottleneck_count += net.bottleneck_count;
  }
  if (node.rate <= tie) {
    c.bottlenecks.insert(c.bottlenecks.end(), node.bottlenecks.begin(), node.bottlenecks.end());
    c.bottleneck_count += node.bottleneck_count;
  }
  return c;
}

// The ring's hops inside a node (all of them on a single node, closing the ring; a broadcast
// pipeline stops before the root).
void add_ring_hops(NodeStage& node, const Placement& p, const Layout& l, Collective coll) {
  const int G = l.gpus_per_node;
  if (l.nodes == 1) {
    for (int g = 0; g < G - (coll == Collective::Broadcast ? 1 : 0); ++g) node.hop(g, (g + 1) % G, l.channels);
    return;
  }
  const std::vector<int> per_rail = channels_per_rail(l);
  for (int k = 0; k < l.rails; ++k)
    for (int i = 0; i + 1 < G && per_rail[k] > 0; ++i)
      node.hop((p.home_gpu[k] + i) % G, (p.home_gpu[k] + i + 1) % G, per_rail[k]);
}

// Tree channels: rail c mod K, tree (c / K) mod 2.
std::map<std::pair<int, int>, int> tree_channels(const Layout& l) {
  std::map<std::pair<int, int>, int> n;
  for (int c = 0; c < l.channels; ++c) ++n[{c % l.rails, (c / l.rails) % 2}];
  return n;
}

void add_tree_chain(NodeStage& node, const Placement& p, const Layout& l) {
  const int G = l.gpus_per_node;
  for (const auto& [key, count] : tree_channels(l)) {
    const int home = p.home_gpu[key.first];
    for (int i = 0; i + 1 < G; ++i) {
      node.hop((home + i) % G, (home + i + 1) % G, count);  // down the chain
      node.hop((home + i + 1) % G, (home + i) % G, count);  // up the chain
    }
  }
}

void add_tree_network(NetworkStage& net, const Layout& l, int job = 0) {
  const DoubleTree tree = double_binary_tree(l.nodes);
  for (const auto& [key, count] : tree_channels(l)) {
    const auto& parent = tree.parent[key.second];
    for (int n = 0; n < l.nodes; ++n) {
      if (parent[n] < 0) continue;
      net.send(n, parent[n], key.first, count, job);  // reduce, up
      net.send(parent[n], n, key.first, count, job);  // broadcast, down
    }
  }
}

void add_ring_network(NetworkStage& net, const Layout& l, Collective coll, int job = 0) {
  const std::vector<int> per_rail = channels_per_rail(l);
  const int sends = l.nodes - (coll == Collective::Broadcast ? 1 : 0);
  for (int k = 0; k < l.rails; ++k)
    if (per_rail[k] > 0)
      for (int n = 0; n < sends; ++n) net.send(n, (n + 1) % l.nodes, k, per_rail[k], job);
}

// The jobs next door put their own algorithm's flows on the cables.
void add_neighbours(NetworkStage& net, const std::vector<NeighbourJob>& neighbours, const HardwareProfile& h) {
  for (const NeighbourJob& j : neighbours) {
    const Layout l = make_layout(h, static_cast<int>(j.placement.hosts.size()));
    if (l.nodes < 2) continue;
    const int job = net.add_job(j.placement);
    if (j.algorithm == Algorithm::Ring) add_ring_network(net, l, j.collective, job);
    else if (j.algorithm == Algorithm::Tree || j.algorithm == Algorithm::NvlsTree) add_tree_network(net, l, job);
  }
}

// Placements this large solve the ring's and the tree's flows between nodes (independent
// problems) on two threads; smaller ones stay on the caller's, which may be one of many.
constexpr int kParallelNodes = 128;

struct NetResult {
  Solved solved;
  double free_rate = kInf;
  int flows = 0;
};

NetResult ring_network(const FabricModel& fabric, const Placement& p, const HardwareProfile& h, const Layout& l,
                       Collective coll, const std::vector<NeighbourJob>& neighbours) {
  NetworkStage net(fabric, p, h, l.rails);
  net.reserve(static_cast<size_t>(l.nodes) * l.rails);
  add_neighbours(net, neighbours, h);
  add_ring_network(net, l, coll);
  NetResult r;
  r.solved = net.solve();
  r.free_rate = net.free_rate();
  r.flows = net.flows();
  return r;
}

NetResult tree_network(const FabricModel& fabric, const Placement& p, const HardwareProfile& h, const Layout& l,
                       const std::vector<NeighbourJob>& neighbours) {
  NetworkStage net(fabric, p, h, l.rails);
  net.reserve(4 * static_cast<size_t>(l.nodes) * std::min(l.channels, 2 * l.rails));
  add_neighbours(net, neighbours, h);
  add_tree_network(net, l);
  NetResult r;
  r.solved = net.solve();
  r.free_rate = net.free_rate();
  r.flows = net.flows();
  return r;
}

void set(AlgorithmBandwidth& a, const Combined& c, double scale) {
  a.modelled = true;
  a.raw_bw = scale * c.rate;
  a.free_raw_bw = scale * c.free_rate;
  a.bottlenecks = c.bottlenecks;
  a.bottleneck_count = c.bottleneck_count;
}

}  // namespace

Contention simulate_contention(const FabricModel& fabric, const Placement& placement,
                               const HardwareProfile& h, Collective coll, const std::vector<NeighbourJob>& neighbours) {
  Contention out;
  const Layout l = make_layout(h, static_cast<int>(placement.hosts.size()));
  if (l.ranks() < 2) return out;
  const Cluster& cluster = fabric.cluster();
  const bool multi = l.nodes > 1;
  const bool tree = coll == Collective::AllReduce;

  // Between nodes.
  NetResult ring_net, tree_net;
  if (multi) {
    if (tree && l.nodes >= kParallelNodes && std::thread::hardware_concurrency() > 1) {
      auto pending = std::async(std::launch::async, [&] { return ring_network(fabric, placement, h, l, coll, neighbours); });
      tree_net = tree_network(fabric, placement, h, l, neighbours);  // the larger: on the caller's thread
      ring_net = pending.get();
    } else {
      ring_net = ring_network(fabric, placement, h, l, coll, neighbours);
      if (tree) tree_net = tree_network(fabric, placement, h, l, neighbours);
    }
  }
  out.flows = ring_net.flows + tree_net.flows;

  // Ring: inside the node, then the channel's slower stage.
  {
    NodeStage node(cluster, placement, h, 1.0);
    add_ring_hops(node, placement, l, coll);
    out.flows += node.flows();
    set(out.by_algorithm[static_cast<int>(Algorithm::Ring)], combine(node.solve(), ring_net.solved, ring_net.free_rate),
        l.channels);
  }

  // NVLS inside the node: bytes through each GPU's port per byte of result.
  Solved nvls;
  if (h.nvls) {
    NodeStage node(cluster, placement, h, h.nvls_efficiency);
    const double G = l.gpus_per_node;
    if (coll == Collective::AllGather) node.nvls(1 / G, 1);
    else if (coll == Collective::ReduceScatter) node.nvls(1, 1 / G);
    else node.nvls(1 + 1 / G, 1 + 1 / G);
    nvls = node.solve();
    out.flows += node.flows();
    // Across a multi-node NVLink domain's trays NVLS reaches less than its ports allow.
    if (h.node_spans > 1 && h.nvlink_domain_nvls_gbs > 0 && nvls.rate > h.nvlink_domain_nvls_gbs) {
      nvls.rate = h.nvlink_domain_nvls_gbs;
      Bottleneck b;
      b.resource = "NVLS across the NVLink domain's " + std::to_string(h.node_spans) + " nodes (" + h.name + ")";
      b.capacity_gbs = b.load_gbs = b.offered_gbs = h.nvlink_domain_nvls_gbs;
      b.oversubscription = 1;
      b.flows = l.gpus_per_node;
      nvls.bottlenecks = {b};
      nvls.bottleneck_count = 1;
    }
    if (!multi && coll != Collective::Broadcast)
      set(out.by_algorithm[static_cast<int>(Algorithm::Nvls)], combine(nvls, Solved{}, kInf), 1);
  }

  // Tree: a chain inside the node, the double binary tree between nodes. NCCL's tree busBw
  // is twice its algorithm bandwidth.
  if (tree) {
    NodeStage chain(cluster, placement, h, 1.0);
    add_tree_chain(chain, placement, l);
    out.flows += chain.flows();
    set(out.by_algorithm[static_cast<int>(Algorithm::Tree)], combine(chain.solve(), tree_net.solved, tree_net.free_rate),
        2.0 * l.channels);
    if (h.nvls && multi) {
      // NVLSTree: NVLS reduces into the NIC GPUs, the tree carries it between nodes.
      Solved per_channel = nvls;
      per_channel.rate = nvls.rate / l.channels;
      set(out.by_algorithm[static_cast<int>(Algorithm::NvlsTree)], combine(per_channel, tree_net.solved, tree_net.free_rate),
          l.channels);
    }
  }
  return out;
}

}  // namespace slurmtopo
