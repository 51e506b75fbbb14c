#include "simulate/network/flow_sharing.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace slurmtopo {
namespace {

// The resources still to fill, as (level at which it fills, resource), lowest first, ties to
// the lower resource. A flow freezing only raises the levels of its other resources (their
// capacity left shrinks in proportion to the weight they lose, and no faster), so an entry's
// level is a lower bound on the resource's: the filling loop corrects the top entry when it
// reaches it instead of updating every resource of every flow that freezes, which most
// resources (the cables of a non-blocking tree never fill) would not need.
class FillHeap {
 public:
  // (level, resource) as one integer: a non-negative double's bits order as the double does,
  // so one unsigned comparison orders by level and then resource, without a branch.
  using Key = unsigned __int128;
  static Key key(double level, int r) {
    return (static_cast<Key>(std::bit_cast<uint64_t>(level)) << 64) | static_cast<uint32_t>(r);
  }
  static double level_of(Key k) { return std::bit_cast<double>(static_cast<uint64_t>(k >> 64)); }
  static int resource_of(Key k) { return static_cast<int>(static_cast<uint32_t>(k)); }

  bool empty() const { return heap_.empty(); }
  Key top() const { return heap_.front(); }
  void push(Key k) {
    size_t i = heap_.size();
    heap_.push_back(k);
    while (i > 0) {
      const size_t parent = (i - 1) / 2;
      if (!(k < heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = k;
  }
  void pop() {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down();
  }
  // The top's level changed (raised; or lowered by a rounding hair, which keeps it on top).
  void replace_top(double level) {
    heap_.front() = key(level, resource_of(heap_.front()));
    sift_down();
  }

 private:
  void sift_down() {
    const size_t n = heap_.size();
    const Key k = heap_.front();
    size_t i = 0;
    while (true) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap_[child + 1] < heap_[child]) ++child;
      if (!(heap_[child] < k)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = k;
  }
  std::vector<Key> heap_;
};

// The same order over two parts: the initial entries sorted once, read front to back, and a
// heap of those whose level rose. Most resources start at one of a few levels (a NIC's
// capacity over its flow count) and leave at their first look, filled or with nothing left to
// fill: reading them off a sorted array costs nothing, where a heap sifts on every one.
class FillQueue {
 public:
  using Key = FillHeap::Key;
  explicit FillQueue(std::vector<Key> keys) : sorted_(std::move(keys)) { sort_keys(sorted_); }
  bool empty() const { return head_ == sorted_.size() && risen_.empty(); }
  Key top() const { return from_sorted() ? sorted_[head_] : risen_.top(); }
  void pop() {
    if (from_sorted()) ++head_;
    else risen_.pop();
  }
  void replace_top(double level) {
    const Key k = FillHeap::key(level, FillHeap::resource_of(top()));
    if (!from_sorted()) return risen_.replace_top(level);
    if (k <= sorted_[head_]) {
      sorted_[head_] = k;  // not raised: still before everything else
    } else {
      ++head_;
      risen_.push(k);
    }
  }

 private:
  bool from_sorted() const { return head_ < sorted_.size() && (risen_.empty() || sorted_[head_] < risen_.top()); }
  // Keys come in resource order: with few distinct levels a stable bucketing by level sorts
  // them in one pass; otherwise std::sort.
  static void sort_keys(std::vector<Key>& keys) {
    constexpr size_t kFew = 32;
    uint64_t levels[kFew];  // in order of first appearance
    size_t distinct = 0, last = 0;  // neighbours in resource order mostly share a level
    std::vector<uint8_t> bucket(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) {
      const uint64_t l = static_cast<uint64_t>(keys[j] >> 64);
      if (last >= distinct || levels[last] != l) {
        last = 0;
        while (last < distinct && levels[last] != l) ++last;
        if (last == distinct) {
          if (distinct == kFew) return std::sort(keys.begin(), keys.end());
          levels[distinct++] = l;
        }
      }
      bucket[j] = static_cast<uint8_t>(last);
    }
    if (distinct <= 1) return;
    uint8_t by_level[kFew], rank[kFew];
    for (size_t i = 0; i < distinct; ++i) by_level[i] = static_cast<uint8_t>(i);
    // Non-negative doubles order as their bits.
    std::sort(by_level, by_level + distinct, [&](uint8_t x, uint8_t y) { return levels[x] < levels[y]; });
    for (size_t i = 0; i < distinct; ++i) rank[by_level[i]] = static_cast<uint8_t>(i);
    size_t start[kFew + 1] = {};
    for (const uint8_t b : bucket) ++start[rank[b] + 1];
    for (size_t i = 0; i < distinct; ++i) start[i + 1] += start[i];
    std::vector<Key> out(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) out[start[rank[bucket[j]]]++] = keys[j];
    keys.swap(out);
  }
  std::vector<Key> sorted_;
  size_t head_ = 0;
  FillHeap risen_;
};

}  // namespace

void merge_repeated_resources(Flow& flow) {
  std::vector<std::pair<int, double>> uses;
  uses.reserve(flow.resources.size());
  for (size_t i = 0; i < flow.resources.size(); ++i)
    uses.push_back({flow.resources[i], i < flow.weights.size() ? flow.weights[i] : 1.0});
  std::sort(uses.begin(), uses.end());
  flow.resources.clear();
  flow.weights.clear();
  for (const auto& [r, w] : uses) {
    if (!flow.resources.empty() && flow.resources.back() == r) {
      flow.weights.back() += w;
    } else {
      flow.resources.push_back(r);
      flow.weights.push_back(w);
    }
  }
}

void FlowSet::add(const Flow& f) {
  if (!f.weights.empty() && f.weights.size() != f.resources.size())
    throw std::invalid_argument("FlowSet: flow " + std::to_string(size()) + " has " + std::to_string(f.weights.size()) +
                                " weights for " + std::to_string(f.resources.size()) + " resources");
  if (!f.weights.empty()) make_weighted();
  resources.insert(resources.end(), f.resources.begin(), f.resources.end());
  if (weighted) {
    if (f.weights.empty()) weights.resize(resources.size(), 1.0);
    else weights.insert(weights.end(), f.weights.begin(), f.weights.end());
  }
  close(f.demand);
}

void FlowSet::merge_open() {
  const size_t start = first.back();
  Flow f;
  f.resources.assign(resources.begin() + start, resources.end());
  f.weights.assign(weights.begin() + start, weights.end());
  merge_repeated_resources(f);
  resources.resize(start);
  weights.resize(start);
  resources.insert(resources.end(), f.resources.begin(), f.resources.end());
  weights.insert(weights.end(), f.weights.begin(), f.weights.end());
}

Sharing max_min_fair(const std::vector<Resource>& resources, const std::vector<Flow>& flows) {
  FlowSet set;
  for (const Flow& f : flows) set.add(f);
  return max_min_fair(resources, set);
}

Sharing max_min_fair(const std::vector<Resource>& resources, const FlowSet& flows) {
  std::vector<double> capacity(resources.size());
  for (size_t r = 0; r < resources.size(); ++r) capacity[r] = resources[r].capacity;
  return max_min_fair(capacity, flows);
}

Sharing max_min_fair(const std::vector<double>& capacity, const FlowSet& flows) {
  return max_min_fair_slowest(capacity, flows, std::numeric_limits<double>::infinity());
}

Sharing max_min_fair_slowest(const std::vector<double>& capacity, const FlowSet& flows, double headroom) {
  const int R = static_cast<int>(capacity.size());
  const int F = static_cast<int>(flows.size());
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kUnbounded = 1e300;  // Flow::demand's default

  const std::vector<int>& flow_offsets = flows.first;
  if (flow_offsets.size() != flows.demand.size() + 1 || flow_offsets.back() != static_cast<int>(flows.resources.size()))
    throw std::invalid_argument("max_min_fair: " + std::to_string(flow_offsets.size()) + " flow offsets for " +
                                std::to_string(F) + " flows and " + std::to_string(flows.resources.size()) +
                                " crossings");
  const int C = flow_offsets[F];
  // Without weights (every flow on single paths, the common case) every crossing weighs 1.0
  // and the two weight arrays are not built: on a 1,024-node tree they are 4 MB of fresh
  // memory per solve, most of the cost of touching it.
  const bool weighted = flows.weighted;
  if (weighted ? static_cast<int>(flows.weights.size()) != C : !flows.weights.empty())
    throw std::invalid_argument("max_min_fair: " + std::to_string(flows.weights.size()) + " weights for " +
                                std::to_string(C) + " crossings");
  std::vector<int> flow_res(C);  // local resource index of each crossing (see below)
  const std::vector<double>& flow_w = flows.weights;
  auto weight_of = [&](int k) { return weighted ? flow_w[k] : 1.0; };
  for (int k = 0; k < C; ++k)
    if ((flow_res[k] = flows.resources[k]) < 0 || flow_res[k] >= R) {
      const int f = static_cast<int>(std::upper_bound(flow_offsets.begin(), flow_offsets.end(), k) - flow_offsets.begin()) - 1;
      throw std::invalid_argument("max_min_fair: flow " + std::to_string(f) + " names resource " +
                                  std::to_string(flow_res[k]) + " of " + std::to_string(R));
    }
  // Work on the resources the flows use only: a few hundred flows over a fabric of 200,000
  // cable directions should not pay for all of them. When crossings are few, number the used
  // resources densely (by sorting the crossings); otherwise index resources directly.
  std::vector<int> global;  // local → caller's index; empty = identity
  if (static_cast<long>(C) * 4 < R) {
    std::vector<std::pair<int, int>> by_resource(C);
    for (int k = 0; k < C; ++k) by_resource[k] = {flow_res[k], k};
    std::sort(by_resource.begin(), by_resource.end());
    for (const auto& [r, k] : by_resource) {
      if (global.empty() || global.back() != r) global.push_back(r);
      flow_res[k] = static_cast<int>(global.size()) - 1;
    }
  }
  const int U = global.empty() ? R : static_cast<int>(global.size());
  auto global_of = [&](int u) { return global.empty() ? u : global[u]; };

  std::vector<int> offsets(U + 1, 0);  // resource → crossings, CSR
  for (int k = 0; k < C; ++k) ++offsets[flow_res[k] + 1];
  for (int u = 0; u < U; ++u) offsets[u + 1] += offsets[u];
  std::vector<int> cross_flow(C);
  std::vector<double> cross_weight(weighted ? C : 0);
  std::vector<double> active_weight(U, 0.0);  // Σ weight of unfrozen flows
  std::vector<int> active_count(U, 0);        // unfrozen flows with positive weight
  {
    std::vector<int> fill(offsets.begin(), offsets.end() - 1);
    for (int f = 0; f < F; ++f)
      for (int k = flow_offsets[f]; k < flow_offsets[f + 1]; ++k) {
        const int r = flow_res[k];
        const double w = weight_of(k);
        if (weighted) cross_weight[fill[r]] = w;
        cross_flow[fill[r]++] = f;
        if (w > 0) {
          active_weight[r] += w;
          ++active_count[r];
        }
      }
  }

  Sharing out;
  out.rate.assign(F, 0.0);
  out.bottleneck.assign(F, -1);
  std::vector<char> frozen(F, 0);

  // Each resource: the capacity left at level `since`; it fills at since + left / weight.
  std::vector<double> left(U), since(U, 0.0);
  std::vector<FillHeap::Key> entries;
  entries.reserve(U);
  for (int r = 0; r < U; ++r) left[r] = std::max(0.0, capacity[global_of(r)]);
  // No flow runs faster than its demand or than any of its resources alone would let it
  // (capacity / weight). A resource that would fill above that bound for every flow crossing
  // it, even at its lowest (initial) level, never fills while one of them is unfrozen: it
  // freezes nothing and stays out of the queue. Often most cables of a placement carry one flow.
  std::vector<double> bound(F, kInf);
  for (int f = 0; f < F; ++f) {
    double b = flows.demand[f];
    for (int k = flow_offsets[f]; k < flow_offsets[f + 1]; ++k)
      if (weight_of(k) > 0) b = std::min(b, left[flow_res[k]] / weight_of(k));
    bound[f] = b;
  }
  for (int r = 0; r < U; ++r) {
    if (active_count[r] == 0) continue;
    const double level = left[r] / active_weight[r];
    bool may_fill = false;
    for (int k = offsets[r]; k < offsets[r + 1] && !may_fill; ++k)
      may_fill = (!weighted || cross_weight[k] > 0) && bound[cross_flow[k]] >= level;
    if (may_fill) entries.push_back(FillHeap::key(level, r));
  }
  FillQueue queue(std::move(entries));

  // Demand events, lowest first; flows that touch no resource get their demand outright.
  std::vector<std::pair<double, int>> by_demand;
  for (int f = 0; f < F; ++f) {
    bool uses_any = false;
    for (int k = flow_offsets[f]; k < flow_offsets[f + 1] && !uses_any; ++k) uses_any = weight_of(k) > 0;
    if (!uses_any) {
      frozen[f] = 1;
      out.rate[f] = flows.demand[f];
    } else if (flows.demand[f] < kUnbounded) {
      by_demand.push_back({flows.demand[f], f});
    }
  }
  std::sort(by_demand.begin(), by_demand.end());
  size_t next_demand = 0;

  int unfrozen = F - static_cast<int>(std::count(frozen.begin(), frozen.end(), 1));
  auto freeze = [&](int f, double level, int bottleneck) {
    frozen[f] = 1;
    --unfrozen;
    out.rate[f] = level;
    out.bottleneck[f] = bottleneck;
    for (int k = flow_offsets[f]; k < flow_offsets[f + 1]; ++k) {
      const double w = weight_of(k);
      if (w <= 0) continue;
      const int r = flow_res[k];
      left[r] = std::max(0.0, left[r] - active_weight[r] * (level - since[r]));
      since[r] = level;
      if (--active_count[r] == 0) active_weight[r] = 0;
      else active_weight[r] -= w;
    }
  };
  // Brings the queue's top up to date: drops resources no unfrozen flow crosses any more and
  // moves those whose level rose, until the top is the next resource to fill.
  auto settle = [&] {
    while (!queue.empty()) {
      const int r = FillHeap::resource_of(queue.top());
      if (active_count[r] == 0 || active_weight[r] <= 0) {
        queue.pop();
        continue;
      }
      const double level = since[r] + left[r] / active_weight[r];
      const bool rose = level > FillHeap::level_of(queue.top());
      queue.replace_top(level);
      if (!rose) return;
    }
  };

  double stop = kInf;     // filling ends above this level: the first one times 1 + headroom
  double stopped = kInf;  // the level it ended at, if it did
  while (unfrozen > 0) {  // what is left in the queue then is resources no flow still fills
    while (next_demand < by_demand.size() && frozen[by_demand[next_demand].second]) ++next_demand;
    settle();
    const double resource_level = queue.empty() ? kInf : FillHeap::level_of(queue.top());
    const double demand_level = next_demand < by_demand.size() ? by_demand[next_demand].first : kInf;
    if (resource_level == kInf && demand_level == kInf) break;
    const double level = std::max(0.0, std::min(resource_level, demand_level));
    if (level > stop) {
      stopped = level;
      break;
    }
    if (stop == kInf && headroom < kInf) stop = level * (1 + headroom);

    if (demand_level <= resource_level) {
      freeze(by_demand[next_demand++].second, std::max(0.0, demand_level), -1);
    } else {
      const int r = FillHeap::resource_of(queue.top());
      queue.pop();
      for (int k = offsets[r]; k < offsets[r + 1]; ++k) {
        const int f = cross_flow[k];
        if (!frozen[f] && (!weighted || cross_weight[k] > 0)) freeze(f, resource_level, global_of(r));
      }
    }
  }
  // Flows never frozen cross only resources of zero weight for them and have no demand cap,
  // or were still rising when filling stopped.
  for (int f = 0; f < F; ++f)
    if (!frozen[f]) out.rate[f] = stopped < kInf ? stopped : flows.demand[f];

  out.load.assign(R, 0.0);
  for (int f = 0; f < F; ++f) {
    if (!frozen[f] && stopped < kInf) continue;  // still rising: its rate is only a bound
    for (int k = flow_offsets[f]; k < flow_offsets[f + 1]; ++k)
      out.load[global_of(flow_res[k])] += weight_of(k) * out.rate[f];
  }
  return out;
}

}  // namespace slurmtopo
