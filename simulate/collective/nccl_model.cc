#include "simulate/collective/nccl_model.h"

#include <algorithm>
#include <cmath>

#include "base/input_error.h"

namespace slurmtopo {

namespace {

int idx(Protocol p) { return static_cast<int>(p); }

// NCCL's log2i: floor(log2(n)), 0 for n ≤ 1.
int log2i(long long n) {
  int r = 0;
  while (n > 1) {
    n >>= 1;
    ++r;
  }
  return r;
}

// NCCL indexes its caps by node count: 1, 2, more.
int bucket(const Layout& l) { return l.nodes <= 2 ? l.nodes - 1 : 2; }

// "Trees are not perfectly sticking to the model for medium sizes": NCCL's own correction
// of tree bandwidth by log2(bytes / 64), 64 B to 256 MiB (tuning.cc, treeCorrectionFactor).
constexpr double kTreeCorrection[kProtocols][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

// NCCL's nsteps: the pipeline steps a ring takes.
int ring_steps(Collective c, int ranks) {
  switch (c) {
    case Collective::AllReduce: return 2 * (ranks - 1);
    case Collective::ReduceScatter:
    case Collective::AllGather: return ranks - 1;
    case Collective::Broadcast: return ranks;
  }
  return 0;
}

const HwLatency& intra_hw(const HardwareProfile& h) {
  return h.nvlink_links > 0 ? h.nccl.nvlink : h.nccl.pci;
}

// Steps whose Simple-protocol synchronisation lies on the critical path.
int sync_steps(Collective c, Algorithm a, const Layout& l) {
  switch (a) {
    case Algorithm::Ring: return c == Collective::AllReduce ? 2 * (l.ranks() - 1) : l.ranks() - 1;
    case Algorithm::Tree: return 2 * ((l.gpus_per_node - 1) + log2i(l.nodes));
    case Algorithm::Nvls: return 2;
    case Algorithm::NvlsTree: return 2 + 2 * log2i(l.nodes);
  }
  return 0;
}

// Network steps on the critical path: the ring's inter-node hops, the trees' levels up and down.
int net_steps(Collective c, Algorithm a, const Layout& l) {
  if (l.nodes < 2) return 0;
  switch (a) {
    case Algorithm::Ring: return c == Collective::AllReduce ? 2 * (l.nodes - 1) : l.nodes - 1;
    case Algorithm::Tree:
    case Algorithm::NvlsTree: return 2 * log2i(l.nodes);
    case Algorithm::Nvls: return 0;
  }
  return 0;
}

}  // namespace

const char* to_string(Collective c) {
  switch (c) {
    case Collective::AllReduce: return "allreduce";
    case Collective::ReduceScatter: return "reducescatter";
    case Collective::AllGather: return "allgather";
    case Collective::Broadcast: return "broadcast";
  }
  return "?";
}

Collective parse_collective(const std::string& name) {
  for (Collective c : {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather,
                       Collective::Broadcast})
    if (name == to_string(c)) return c;
  throw InputError("--collective", 0,
                   "expected allreduce, reducescatter, allgather or broadcast, not `" + name + "`");
}

Algorithm parse_algorithm(const std::string& name) {
  for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree})
    if (name == to_string(a)) return a;
  throw InputError("--algo", 0, "expected auto, ring, tree, nvls or nvlstree, not `" + name + "`");
}

Layout make_layout(const HardwareProfile& profile, int nodes) {
  Layout l;
  l.nodes = std::max(1, nodes);
  l.gpus_per_node = profile.gpus_per_node;
  l.rails = std::max(1, profile.nics_per_node);
  l.channels = std::max(1, profile.channels);
  // NCCL balances channels over the NICs: every rail carries as many as the others.
  if (l.nodes > 1) l.channels = (l.channels + l.rails - 1) / l.rails * l.rails;
  return l;
}

double bus_factor(Collective c, int ranks) {
  if (ranks <= 1) return 0;
  switch (c) {
    case Collective::AllReduce: return 2.0 * (ranks - 1) / ranks;
    case Collective::ReduceScatter:
    case Collective::AllGather: return static_cast<double>(ranks - 1) / ranks;
    case Collective::Broadcast: return 1.0;
  }
  return 0;
}

bool available(Collective c, Algorithm a, Protocol p, const HardwareProfile& h, const Layout& l) {
  if (!h.protocols[idx(p)] || l.ranks() < 2) return false;
  switch (a) {
    case Algorithm::Ring: return true;
    case Algorithm::Tree: return c == Collective::AllReduce;
    case Algorithm::Nvls:
      return h.nvls && l.nodes == 1 && p == Protocol::Simple && c != Collective::Broadcast;
    case Algorithm::NvlsTree:
      return h.nvls && l.nodes > 1 && p == Protocol::Simple && c == Collective::AllReduce;
  }
  return false;
}

double nccl_latency_us(Collective c, Algorithm a, Protocol p, const HardwareProfile& h, const Layout& l) {
  const NcclConstants& k = h.nccl;
  const int i = idx(p);
  const int ranks = l.ranks();
  switch (a) {
    case Algorithm::Ring: {
      const int nsteps = ring_steps(c, ranks);
      if (c == Collective::Broadcast) {
        // NCCL: a pipeline from the root, each step one hop; Simple pays a tree chunk's latency.
        const HwLatency& hw = l.nodes == 1 ? intra_hw(h) : k.net;
        return k.base_ring[i] + nsteps * (p == Protocol::Simple ? hw.tree[i] : hw.ring[i]);
      }
      const int inter = l.nodes == 1 ? 0 : c == Collective::AllReduce ? 2 * (l.nodes - 1) : l.nodes - 1;
      double intra = intra_hw(h).ring[i];
      // Inter-node rings still launch every step through the network proxy.
      if (l.nodes > 1) intra = std::max(intra, h.net_overhead_us() * (p == Protocol::Simple ? 3 : 1));
      return k.base_ring[i] + (nsteps - inter) * intra + inter * k.net.ring[i];
    }
    case Algorithm::Tree:
      return k.base_tree[i] + 2 * ((l.gpus_per_node - 1) * intra_hw(h).tree[i] + log2i(l.nodes) * k.net.tree[i]);
    case Algorithm::Nvls: return k.nvlink.nvls + (l.nodes > 1 ? k.net.nvls : 0);
    case Algorithm::NvlsTree: return k.nvlink.nvlstree + 2 * log2i(l.nodes) * k.net.nvlstree;
  }
  return 0;
}

double nccl_algorithm_bw(Collective c, Algorithm a, Protocol p, double raw, const HardwareProfile& h,
                         const Layout& l) {
  const NcclConstants& k = h.nccl;
  const int b = bucket(l);
  const double nc = l.channels;
  const double ppn = l.gpus_per_node;
  switch (a) {
    case Algorithm::Ring: {
      double bus = raw;
      if (p == Protocol::LL) bus = std::min(k.ll_max_bw[b], bus * 0.5);
      if (p == Protocol::LL128) bus = std::min(bus * (ppn < 2 ? 0.7 : 0.92), nc * k.ring_ll128_per_channel[b]);
      return bus * l.ranks() / ring_steps(c, l.ranks());
    }
    case Algorithm::Tree: {
      double bus = std::min(raw * 0.92, nc * k.tree_per_channel[b]);
      if (p == Protocol::LL) bus = std::min(bus / 3.8, k.ll_max_bw[b]);
      if (p == Protocol::LL128)
        bus = std::min(bus * (l.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), nc * k.tree_ll128_per_channel[b]);
      return bus * 0.5;
    }
    case Algorithm::Nvls:
    case Algorithm::NvlsTree: return raw;
  }
  return 0;
}

int nccl_channels(Algorithm a, Protocol p, double bytes, const Layout& l) {
  if (a == Algorithm::Nvls || a == Algorithm::NvlsTree) return l.channels;  // nvlsChannels, fixed
  // enqueue.cc: while (nBytes < nc · nThreads · threadThreshold) nc--.
  const double threads = p == Protocol::LL128 ? 640 : 512;
  double threshold = p == Protocol::Simple ? 64 : 8;
  if (a == Algorithm::Ring && p == Protocol::LL) threshold *= l.ranks();
  int nc = l.channels;
  while (nc >= 2 && bytes < nc * threads * threshold) --nc;
  return nc;
}

int pipeline_ops(Algorithm a, int channels, const Layout& l) {
  // NVLSTree runs one operation per channel and NVLS head (a head per NIC).
  return a == Algorithm::NvlsTree ? channels * l.rails : channels;
}

double nccl_chunk_bytes(Algorithm a, Protocol p, double bytes, int channels, const Layout& l) {
  constexpr double kSimpleStep = 4.0 * 1024 * 1024 / 8;  // 4 MiB buffer over NCCL_STEPS
  constexpr double kLL128Step = 614400.0 / 16 * 15;    // LL128 buffer / 8, 15 of 16 lines data
  constexpr double kLLStep = 65536.0 / 2;               // LL: half the line is flags
  const double ops = pipeline_ops(a, channels, l);
  switch (a) {
    case Algorithm::Ring:
      // Ring Simple takes NCCL_STEPS/2 steps a chunk.
      return p == Protocol::Simple ? 4 * kSimpleStep : p == Protocol::LL128 ? kLL128Step : kLLStep;
    case Algorithm::Tree: {
      if (p == Protocol::Simple) return kSimpleStep;
      if (p == Protocol::LL) return kLLStep;
      // Tree LL128 halves its chunk until the pipeline has enough of them.
      const double ppn = l.gpus_per_node;
      const double steps = 1 + log2i(l.nodes) + 0.1 * ppn;
      double c = kLL128Step;
      while (std::floor(bytes / (channels * c)) < steps * 64 / ppn && c > 131072) c /= 2;
      while (std::floor(bytes / (channels * c)) < steps * 16 / ppn && c > 32768) c /= 2;
      return c;
    }
    case Algorithm::Nvls: {
      double c = 131072;  // nvlsChunkSize
      if (bytes < 64 * ops * c && c > 65536) c = 65536;
      if (bytes < 8 * ops * c && c > 32768) c = 32768;
      if (bytes < 2 * ops * c && c > 16384) c = 16384;
      return c;
    }
    case Algorithm::NvlsTree: {
      // nvlsTreeMaxChunkSize: 64 KiB from four nodes on.
      double c = l.nodes >= 4 ? 65536 : 131072;
      if (bytes < 32 * ops * c && c > 262144) c = 262144;
      if (bytes < 16 * ops * c && c > 131072) c = 131072;
      if (bytes < 4 * ops * c && c > 65536) c = 65536;
      if (bytes < 1 * ops * c && c > 32768) c = 32768;
      return c;
    }
  }
  return kSimpleStep;
}

int pipeline_depth(Algorithm a, const Layout& l) {
  switch (a) {
    case Algorithm::Ring: return 1;  // NCCL's per-step latency already walks the ring
    case Algorithm::Tree: return 2 * ((l.gpus_per_node - 1) + log2i(l.nodes));
    case Algorithm::Nvls: return 2;
    case Algorithm::NvlsTree: return 2 + 2 * log2i(l.nodes);
  }
  return 1;
}

double nccl_estimate_us(Collective c, Algorithm a, Protocol p, double bytes, double alg_bw, const HardwareProfile& h,
                        const Layout& l) {
  if (l.ranks() < 2) return 0;
  double lat = nccl_latency_us(c, a, p, h, l);
  if (a == Algorithm::Ring && p == Protocol::Simple && l.nodes > 1 && c == Collective::AllReduce &&
      bytes / (static_cast<double>(l.channels) * l.ranks()) >= 64)
    lat *= h.sm < 80 ? 1.9 : 1.4;
  double bw = alg_bw;
  if (a == Algorithm::Tree) {
    const int log_size = log2i(static_cast<long long>(bytes) >> 6);
    if (log_size < 23) bw *= kTreeCorrection[idx(p)][log_size];
  }
  return bw > 0 ? lat + bytes / (1e3 * bw) : INFINITY;
}

TimeTerms predict_time(Collective c, Algorithm a, Protocol p, double bytes, double alg_bw,
                       const HardwareProfile& h, const Layout& l) {
  TimeTerms t;
  t.launch = h.calibration.launch_us;
  if (l.ranks() < 2) return t;  // one rank: NCCL copies locally, if at all
  double lat = nccl_latency_us(c, a, p, h, l);
  // NCCL's "plateau effect of ring" across nodes once chunks are not tiny.
  if (a == Algorithm::Ring && p == Protocol::Simple && l.nodes > 1 && c == Collective::AllReduce &&
      bytes / (static_cast<double>(l.channels) * l.ranks()) >= 64)
    lat *= h.sm < 80 ? 1.9 : 1.4;
  t.latency = lat;

  // The channels NCCL gives this size: fewer channels move proportionally less.
  const int channels = nccl_channels(a, p, bytes, l);
  double bw = alg_bw * channels / l.channels;
  if (a == Algorithm::Tree) {
    const int log_size = log2i(static_cast<long long>(bytes) >> 6);
    if (log_size < 23) bw *= kTreeCorrection[idx(p)][log_size];
  }
  if (bw <= 0) {
    t.transfer = INFINITY;
    return t;
  }
  t.transfer = bytes / (1e3 * bw);  // GB/s = 1e3 bytes/µs

  // The pipeline: each operation (channel, or channel and head) moves its share in chunks
  // through `depth` stages; the first chunk crosses every stage before the last stage is busy
  // (fill), and every chunk on the critical path pays the protocol's per-step cost.
  const int ops = pipeline_ops(a, channels, l);
  const double share = bytes / ops;
  const double chunk = std::min(share, nccl_chunk_bytes(a, p, bytes, channels, l));
  const double chunks = std::ceil(share / chunk);
  const int depth = pipeline_depth(a, l);
  const double per_chunk_us = t.transfer / chunks;  // one chunk through the slowest stage
  t.fill = (depth - 1) * per_chunk_us;
  // The protocol's per-step cost: paid once per stage of the critical path (the ring's 2(p−1)
  // steps, the pipeline's depth), and by every chunk only where it outlasts the chunk's
  // transfer (NCCL keeps 8 steps in flight, so the rest overlaps).
  const double step = h.calibration.step_us[idx(p)];
  const double critical = a == Algorithm::Ring ? sync_steps(c, a, l) : depth;
  t.sync = step * critical + chunks * std::max(0.0, step - per_chunk_us);
  if (l.nodes > 1) t.sync += net_steps(c, a, l) * h.calibration.net_jitter_us * std::sqrt(2 * std::log(l.nodes));
  return t;
}

DoubleTree double_binary_tree(int n) {
  // ncclGetBtree: rank r's parent flips r's lowest set bit and sets the next one up (or
  // just flips it when that would leave the range).
  auto btree_parent = [n](int r) {
    if (r == 0) return -1;
    int bit = 1;
    while (!(bit & r)) bit <<= 1;
    int up = (r ^ bit) | (bit << 1);
    if (up >= n) up = r ^ bit;
    return up;
  };
  DoubleTree t;
  t.parent[0].resize(n);
  t.parent[1].resize(n);
  for (int r = 0; r < n; ++r) {
    t.parent[0][r] = btree_parent(r);
    if (n % 2 == 1) {  // shift by one
      const int u = btree_parent((r - 1 + n) % n);
      t.parent[1][r] = u == -1 ? -1 : (u + 1) % n;
    } else {  // mirror
      const int u = btree_parent(n - 1 - r);
      t.parent[1][r] = u == -1 ? -1 : n - 1 - u;
    }
  }
  return t;
}

}  // namespace slurmtopo
