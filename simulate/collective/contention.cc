#include "simulate/collective/contention.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <set>
#include <thread>

#include "base/input_error.h"

namespace slurmtopo {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One max-min problem: resources with capacities, flows standing for `count` channels each,
// and names made only for the resources that end up reported. Unless `per_flow`, a flow's
// weight on each resource is count × its share there, so a solved rate is per channel.
struct Problem {
  std::vector<Resource> resources;
  std::vector<Flow> flows;
  std::vector<double> count;
  // Every flow stands for the same number of channels, left out of the weights: solved
  // rates are then per flow, count[f] times a channel's (the common case, and the cheaper).
  bool per_flow = false;
  std::function<std::string(int)> name;

  double channels(size_t f) const { return per_flow ? count[f] : 1.0; }
};

struct Solved {
  double rate = kInf;  // the slowest flow's, per channel
  std::vector<Bottleneck> bottlenecks;  // the worst kReported
  int bottleneck_count = 0;             // all the resources that hold a slowest flow
};

constexpr size_t kReported = 10;  // bottlenecks named per algorithm, worst first

// Reports the resources that hold the slowest flows of `problem` as shared in `s`, with what
// they would be offered at `expected` (the rates NCCL expects, per flow as solved).
Solved solve_problem(const Problem& problem, const Sharing& s, const std::vector<double>& expected) {
  Solved out;
  if (problem.flows.empty()) return out;
  for (size_t f = 0; f < problem.flows.size(); ++f) out.rate = std::min(out.rate, s.rate[f] / problem.channels(f));

  // The resources that froze a slowest flow, each with a slot for what it is offered.
  std::vector<int> slot(problem.resources.size(), -1);
  std::vector<int> held;
  for (size_t f = 0; f < problem.flows.size(); ++f) {
    const int r = s.bottleneck[f];
    if (r >= 0 && s.rate[f] / problem.channels(f) <= out.rate * (1 + 1e-9) && slot[r] < 0) {
      slot[r] = static_cast<int>(held.size());
      held.push_back(r);
    }
  }
  out.bottleneck_count = static_cast<int>(held.size());
  if (held.empty()) return out;

  std::vector<double> offered(held.size(), 0), flows(held.size(), 0);
  for (size_t f = 0; f < problem.flows.size(); ++f) {
    const Flow& flow = problem.flows[f];
    for (size_t i = 0; i < flow.resources.size(); ++i) {
      const int k = slot[flow.resources[i]];
      if (k < 0) continue;
      const double w = flow.weights.empty() ? 1.0 : flow.weights[i];
      offered[k] += w * expected[f];
      flows[k] += w * problem.channels(f);
    }
  }
  auto over = [&](int k) {
    const double cap = problem.resources[held[k]].capacity;
    return cap > 0 ? offered[k] / cap : kInf;
  };
  std::vector<int> order(held.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    return over(x) != over(y) ? over(x) > over(y) : held[x] < held[y];
  });
  if (order.size() > kReported) order.resize(kReported);
  for (int k : order) {
    const int r = held[k];
    Bottleneck b;
    b.resource = problem.name(r);
    b.capacity_gbs = problem.resources[r].capacity;
    b.load_gbs = s.load[r];
    b.offered_gbs = offered[k];
    b.oversubscription = over(k);
    b.flows = flows[k];
    out.bottlenecks.push_back(std::move(b));
  }
  return out;
}

// Channel c runs on rail c mod K; channels of one rail (and tree) behave alike, so each
// group becomes one flow standing for all of them.
std::vector<int> channels_per_rail(const Layout& l) {
  std::vector<int> n(l.rails, 0);
  for (int c = 0; c < l.channels; ++c) ++n[c % l.rails];
  return n;
}

// ---- inside one node (all nodes are alike: solved on the first) ----

class NodeStage {
 public:
  NodeStage(const Cluster& cluster, const Placement& placement, const HardwareProfile& h, double efficiency)
      : h_(h) {
    const std::string host = placement.hosts.empty() ? "node" : cluster.hosts[placement.hosts.front()].name;
    const bool nvlink = h.nvlink_links > 0;
    const double cap = (nvlink ? h.nvlink_gbs() : h.pcie_gbs()) * efficiency;
    const int gpus = h.gpus_per_node;
    for (int g = 0; g < gpus; ++g) {
      p_.resources.push_back({"", cap});  // 2g: tx
      p_.resources.push_back({"", cap});  // 2g+1: rx
    }
    const std::string port = nvlink ? " NVLink " : " PCIe ";
    const std::string suffix = placement.hosts.size() > 1 ? " (every node alike)" : "";
    p_.name = [host, port, suffix](int r) {
      return host + " GPU" + std::to_string(r / 2) + port + (r % 2 ? "rx" : "tx") + suffix;
    };
  }

  // `count` channels send from GPU a to GPU b.
  void hop(int a, int b, double count) {
    auto key = std::make_pair(a, b);
    const auto it = index_.find(key);
    if (it != index_.end()) {
      for (double& w : p_.flows[it->second].weights) w += count;
      p_.count[it->second] += count;
      return;
    }
    index_[key] = static_cast<int>(p_.flows.size());
    p_.flows.push_back({{2 * a, 2 * b + 1}, {count, count}});
    p_.count.push_back(count);
  }

  // One flow per GPU into and out of the switch, `tx`/`rx` bytes per byte of the result.
  void nvls(double tx, double rx) {
    for (int g = 0; g < h_.gpus_per_node; ++g) {
      p_.flows.push_back({{2 * g, 2 * g + 1}, {tx, rx}});
      p_.count.push_back(1);
    }
  }

  Solved solve() const {
    if (p_.flows.empty()) return {};
    const Sharing s = max_min_fair(p_.resources, p_.flows);
    return solve_problem(p_, s, s.rate);  // nothing inside a node is hidden from NCCL
  }
  int flows() const { return static_cast<int>(p_.flows.size()); }

 private:
  const HardwareProfile& h_;
  Problem p_;
  std::map<std::pair<int, int>, int> index_;
};

// ---- between nodes: NIC to NIC over the routed cables ----

// The fabric's cable resource → this problem's: a dense array when the placement's flows
// could touch a good part of the fabric, else open addressing over a table sized to the
// flows (clearing an array the size of a large fabric costs more than the lookups save).
class CableIndex {
 public:
  // Keys are below `universe`; about `keys` of them will be asked for.
  void prepare(size_t universe, size_t keys) {
    if (universe <= 4 * keys) {
      dense_.assign(universe, -1);
      return;
    }
    size_t n = 64;
    while (n < 2 * keys) n <<= 1;
    slots_.assign(n, {-1, -1});
    used_ = 0;
  }
  // The value for `key`, inserting `fresh` when absent; `inserted` says which.
  int get(int key, int fresh, bool& inserted) {
    if (!dense_.empty()) {
      int& v = dense_[key];
      inserted = v < 0;
      if (inserted) v = fresh;
      return v;
    }
    if (2 * (used_ + 1) > slots_.size()) grow();
    size_t i = hash(key) & (slots_.size() - 1);
    while (slots_[i].first >= 0) {
      if (slots_[i].first == key) {
        inserted = false;
        return slots_[i].second;
      }
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = {key, fresh};
    ++used_;
    inserted = true;
    return fresh;
  }

 private:
  static size_t hash(int key) { return static_cast<size_t>(static_cast<uint32_t>(key) * 2654435761u); }
  void grow() {
    std::vector<std::pair<int, int>> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), {-1, -1});
    used_ = 0;
    bool ignored;
    for (const auto& [k, v] : old)
      if (k >= 0) get(k, v, ignored);
  }
  std::vector<int> dense_;
  std::vector<std::pair<int, int>> slots_;
  size_t used_ = 0;
};

class NetworkStage {
 public:
  NetworkStage(const FabricModel& fabric, const Placement& placement, const HardwareProfile& h, int rails)
      : fabric_(fabric), placement_(placement), rails_(rails) {
    const int nodes = static_cast<int>(placement.hosts.size());
    host_resources_ = nodes * rails * 2;
    // The PCIe path between GPU and NIC and the NIC itself carry the same flows: one
    // resource each way, as fast as the slower of the two, named after it.
    const bool pcie_slower = h.pcie_gbs() < h.nic_gbs;
    const double cap = std::min(h.pcie_gbs(), h.nic_gbs);
    for (int i = 0; i < nodes * rails; ++i) {
      p_.resources.push_back({"", cap});  // send: GPU → NIC → cable
      p_.resources.push_back({"", cap});  // receive: cable → NIC → GPU
    }
    p_.name = [this, pcie_slower](int r) -> std::string {
      if (r >= host_resources_) return fabric_.cables().resources[cable_of_[r - host_resources_]].name;
      const int node = r / 2 / rails_, rail = r / 2 % rails_;
      const Hca& hca = fabric_.cluster().hcas[placement_.rails[node][rail]];
      const bool send = r % 2 == 0;
      return hca.host + " " + hca.rail + (pcie_slower ? (send ? " PCIe GPU->NIC" : " PCIe NIC->GPU") : (send ? " NIC tx" : " NIC rx"));
    };
  }
  NetworkStage(const NetworkStage&) = delete;
  NetworkStage& operator=(const NetworkStage&) = delete;

  void reserve(size_t flows) {
    p_.flows.reserve(flows);
    p_.count.reserve(flows);
    // A placement of this many flows may touch most of a small fabric: index its cables
    // densely then, sparsely otherwise.
    local_of_.prepare(fabric_.cables().resources.size(), flows * 4);
    p_.resources.reserve(p_.resources.size() + std::min(fabric_.cables().resources.size(), flows * 4));
  }

  // `count` channels send from node a to node b on `rail`.
  void send(int a, int b, int rail, double count) {
    const int src = placement_.rails[a][rail], dst = placement_.rails[b][rail];
    const std::vector<PathShare> paths = fabric_.routing().route(src, dst);
    if (paths.empty()) {
      const Cluster& c = fabric_.cluster();
      throw InputError("--nodes", 0,
                       "expected every NIC of the placement to reach the others; " + c.hcas[src].host + " " +
                           c.hcas[src].rail + " cannot reach " + c.hcas[dst].host + " " + c.hcas[dst].rail +
                           " through the fabric");
    }
    // Weights are the share of the flow on each resource: none (all 1) for one path.
    const bool split = paths.size() > 1;
    size_t links = 0;
    for (const PathShare& ps : paths) links += ps.links.size();
    Flow f;
    f.resources.reserve(2 + links);
    f.resources = {(a * rails_ + rail) * 2, (b * rails_ + rail) * 2 + 1};
    if (split) f.weights = {1.0, 1.0};
    for (const PathShare& ps : paths)
      for (const DirectedLink& d : ps.links) {
        const int global = fabric_.cables().index(d);
        bool inserted;
        const int local = local_of_.get(global, static_cast<int>(p_.resources.size()), inserted);
        if (inserted) {
          p_.resources.push_back({"", fabric_.capacity(global)});
          cable_of_.push_back(global);
        }
        f.resources.push_back(local);
        if (split) f.weights.push_back(ps.share);
      }
    if (split) merge_repeats(f);  // adaptive routing: a link on several paths
    p_.flows.push_back(std::move(f));
    p_.count.push_back(count);
  }

  Solved solve() {
    // Flows standing for equally many channels share as single flows do; otherwise the
    // channel counts go into the weights.
    p_.per_flow = std::all_of(p_.count.begin(), p_.count.end(), [&](double c) { return c == p_.count.front(); });
    if (!p_.per_flow)
      for (size_t i = 0; i < p_.flows.size(); ++i) {
        Flow& f = p_.flows[i];
        if (f.weights.empty()) f.weights.assign(f.resources.size(), 1.0);
        for (double& w : f.weights) w *= p_.count[i];
      }
    const Sharing fabric = max_min_fair(p_.resources, p_.flows);
    // What NCCL expects: the same flows with every cable ideal. Only its slowest flow
    // matters, and in a max-min fair sharing that one runs at the first level the water
    // fills to: the least capacity / weight over the resources, here the NICs alone.
    std::vector<double> weight(host_resources_, 0.0);
    for (size_t f = 0; f < p_.flows.size(); ++f)
      for (int i = 0; i < 2; ++i)
        weight[p_.flows[f].resources[i]] += p_.flows[f].weights.empty() ? 1.0 : p_.flows[f].weights[i];
    double level = kInf;  // per flow as solved
    for (int r = 0; r < host_resources_; ++r)
      if (weight[r] > 0) level = std::min(level, p_.resources[r].capacity / weight[r]);
    free_rate_ = kInf;
    std::vector<double> expected(p_.flows.size());  // every channel at NCCL's rate
    for (size_t f = 0; f < p_.flows.size(); ++f) free_rate_ = std::min(free_rate_, level / p_.channels(f));
    for (size_t f = 0; f < p_.flows.size(); ++f) expected[f] = free_rate_ * p_.channels(f);
    return solve_problem(p_, fabric, expected);
  }
  double free_rate() const { return free_rate_; }
  int flows() const { return static_cast<int>(p_.flows.size()); }

 private:
  static void merge_repeats(Flow& f) {
    std::vector<std::pair<int, double>> uses;
    for (size_t i = 0; i < f.resources.size(); ++i) uses.push_back({f.resources[i], f.weights[i]});
    std::sort(uses.begin(), uses.end());
    f.resources.clear();
    f.weights.clear();
    for (const auto& [r, w] : uses) {
      if (!f.resources.empty() && f.resources.back() == r) {
        f.weights.back() += w;
      } else {
        f.resources.push_back(r);
        f.weights.push_back(w);
      }
    }
  }

  const FabricModel& fabric_;
  const Placement& placement_;
  int rails_;
  int host_resources_ = 0;
  Problem p_;
  CableIndex local_of_;        // fabric cable resource → this problem's
  std::vector<int> cable_of_;  // this problem's cable resources → the fabric's
  double free_rate_ = kInf;
};

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
  const double tie = c.rate * (1 + 1e-9);
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

void add_tree_network(NetworkStage& net, const Layout& l) {
  const DoubleTree tree = double_binary_tree(l.nodes);
  for (const auto& [key, count] : tree_channels(l)) {
    const auto& parent = tree.parent[key.second];
    for (int n = 0; n < l.nodes; ++n) {
      if (parent[n] < 0) continue;
      net.send(n, parent[n], key.first, count);  // reduce, up
      net.send(parent[n], n, key.first, count);  // broadcast, down
    }
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
                       Collective coll) {
  NetworkStage net(fabric, p, h, l.rails);
  const std::vector<int> per_rail = channels_per_rail(l);
  const int sends = l.nodes - (coll == Collective::Broadcast ? 1 : 0);
  net.reserve(static_cast<size_t>(sends) * l.rails);
  for (int k = 0; k < l.rails; ++k)
    if (per_rail[k] > 0)
      for (int n = 0; n < sends; ++n) net.send(n, (n + 1) % l.nodes, k, per_rail[k]);
  NetResult r;
  r.solved = net.solve();
  r.free_rate = net.free_rate();
  r.flows = net.flows();
  return r;
}

NetResult tree_network(const FabricModel& fabric, const Placement& p, const HardwareProfile& h, const Layout& l) {
  NetworkStage net(fabric, p, h, l.rails);
  net.reserve(4 * static_cast<size_t>(l.nodes) * std::min(l.channels, 2 * l.rails));
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
                               const HardwareProfile& h, Collective coll) {
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
      auto pending = std::async(std::launch::async, [&] { return ring_network(fabric, placement, h, l, coll); });
      tree_net = tree_network(fabric, placement, h, l);  // the larger: on the caller's thread
      ring_net = pending.get();
    } else {
      ring_net = ring_network(fabric, placement, h, l, coll);
      if (tree) tree_net = tree_network(fabric, placement, h, l);
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
