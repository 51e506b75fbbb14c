// topology/tree placement: _eval_nodes_topo (fewest leaf switches, nearest first) and
// _eval_nodes_dfly (TopologyParam=Dragonfly), as select/cons_tres 22.05 and the tree plugin of
// later releases run them. Names follow Slurm's so the two can be read side by side; that is
// also why it is one file over 400 lines: it follows Slurm's two functions step for step.
#include <algorithm>
#include <string>

#include "simulate/scheduler/slurm_select_model.h"

namespace slurmtopo::select_detail {

namespace {

bool at_least(SlurmVersion v, SlurmVersion since) { return static_cast<int>(v) >= static_cast<int>(since); }

// The state one topology evaluation carries between its steps.
struct TreeRun {
  Eval& e;
  const SlurmSelect::Model& m;
  int rem_nodes, min_rem_nodes, max_nodes;
  int64_t rem_cpus, rem_max_cpus;
  std::vector<char> chosen;    // topo_eval->node_map as the allocation grows
  // Slurm keeps a node bitmap per switch (switch_node_bitmap); here it is the switch's node
  // list filtered by two node flags: within the top switch, then within the candidates.
  std::vector<char> in_scope;  // below the top switch (tree: and available)
  std::vector<char> cand;      // the candidate set plus what is taken, once restricted
  bool restricted = false;
  std::vector<int> swcnt;      // switch_node_cnt
  std::vector<int64_t> swcpu;            // switch_cpu_cnt (24.05+; never shrinks)
  std::vector<char> required;            // switch_required
  std::vector<int> avail_cpu_per_node;   // set for candidate nodes
  std::vector<int> taken;                // the nodes of `chosen`, in the order taken

  // Plain trees (Model::plain_tree) keep no per-node scope or candidate flags: a node is in
  // scope if available and its leaf is below the top switch, a candidate if its weight rank is
  // within the tiers collected (last_rank). The counts come per leaf, summed up the parents.
  bool plain = false;
  int last_rank = -1;
  std::vector<char> leaf_in_top;

  TreeRun(Eval& ev, bool plain_tree)
      : e(ev), m(ev.m), rem_nodes(std::max(ev.min_nodes, ev.req_nodes)), min_rem_nodes(ev.min_nodes),
        max_nodes(ev.max_nodes), rem_cpus(ev.min_cpus), rem_max_cpus(ev.min_cpus),
        chosen(ev.node_map.size(), 0), plain(plain_tree) {
    if (!plain) {
      in_scope.assign(ev.node_map.size(), 0);
      cand.assign(ev.node_map.size(), 0);
      avail_cpu_per_node.assign(ev.node_map.size(), 0);
    }
  }

  bool in_top(int n) const { return e.node_map[n] && m.node_leaf[n] >= 0 && leaf_in_top[m.node_leaf[n]]; }
  // A candidate not taken yet (the leaf loops' test).
  bool usable(int n) const {
    if (plain) return !chosen[n] && in_top(n) && m.weight_rank[n] <= last_rank;
    return in_scope[n] && cand[n] && !chosen[n] && avail_cpu_per_node[n];
  }
  int cpus_of(int n) const { return plain ? e.avail_cpus[n] : avail_cpu_per_node[n]; }

  // Calls f(s) for every switch above node n.
  template <typename F>
  void above(int n, F&& f) const {
    for (int k = m.node_switch_at[n]; k < m.node_switch_at[n + 1]; ++k) f(m.node_switch[k]);
  }

  // Calls f(n) for the nodes of switch s's bitmap, ascending.
  template <typename F>
  void each(int s, F&& f) const {
    for (int n : m.switches[s].nodes)
      if (in_scope[n] && (!restricted || cand[n])) f(n);
  }

  // Restricts the switch bitmaps to the candidates (and taken nodes) and counts them.
  void restrict_to(const std::vector<char>& best) {
    for (size_t n = 0; n < cand.size(); ++n) cand[n] = best[n] || chosen[n];
    restricted = true;
    swcnt.assign(m.switches.size(), 0);
    for (size_t n = 0; n < cand.size(); ++n)
      if (cand[n] && in_scope[n]) above(static_cast<int>(n), [&](int s) { ++swcnt[s]; });
  }

  // Marks every switch holding one of the forced nodes (switch_required).
  void require_overlapping(const std::vector<char>& req2) {
    for (size_t n = 0; n < req2.size(); ++n)
      if (req2[n] && in_scope[n]) above(static_cast<int>(n), [&](int s) { required[s] = 1; });
  }

  bool done() const { return rem_nodes <= 0 && rem_cpus <= 0; }

  void take(int n) {
    const int cpus = cpus_to_use(e, cpus_of(n), rem_max_cpus, min_rem_nodes);
    --rem_nodes;
    --min_rem_nodes;
    --max_nodes;
    rem_cpus -= cpus;
    rem_max_cpus -= cpus;
    chosen[n] = 1;
    taken.push_back(n);
  }

  int count_leaves() const {  // every taken node is in scope
    std::vector<char> used(m.switches.size(), 0);
    for (int n : taken) above(n, [&](int s) { used[s] = 1; });
    int leaves = 0;
    for (size_t s = 0; s < used.size(); ++s) leaves += used[s] && m.switches[s].level == 0;
    return leaves;
  }
};

void add_dist(const SlurmSelect::Model& m, std::vector<uint32_t>& dist, int s) {
  for (size_t i = 0; i < dist.size(); ++i) {
    if (m.dist[s][i] == kInfinite || dist[i] == kInfinite) dist[i] = kInfinite;
    else dist[i] += m.dist[s][i];
  }
}

// _topo_compare_switches: 1 if i is the better leaf, -1 if j is, 0 if neither. When neither
// fits, their parents are compared, climbing while the parents differ; then more nodes wins,
// then the lower level. i_fit reports the fit seen last (24.05.3 uses it).
int compare_switches(const TreeRun& r, int i, int j, bool& i_fit_out) {
  const auto& sw = r.m.switches;
  const bool cpus = at_least(r.m.version, SlurmVersion::V24_05);
  while (true) {
    const bool i_fit = r.swcnt[i] >= r.rem_nodes && (!cpus || r.swcpu[i] >= r.rem_cpus);
    const bool j_fit = r.swcnt[j] >= r.rem_nodes && (!cpus || r.swcpu[j] >= r.rem_cpus);
    i_fit_out = i_fit;
    if (i_fit && j_fit) {
      if (r.swcnt[i] < r.swcnt[j]) return 1;
      if (r.swcnt[i] > r.swcnt[j]) return -1;
      break;
    }
    if (i_fit) return 1;
    if (j_fit) return -1;
    // Slurm climbs while the parents differ. A root's parent is "none"; Slurm would read past
    // its table there (leaves at unequal depth), so the climb stops at the roots instead.
    if (sw[i].parent != sw[j].parent && sw[i].parent != kNoParent && sw[j].parent != kNoParent) {
      i = sw[i].parent;
      j = sw[j].parent;
      continue;
    }
    break;
  }
  if (r.swcnt[i] > r.swcnt[j]) return 1;
  if (r.swcnt[i] < r.swcnt[j]) return -1;
  if (sw[i].level < sw[j].level) return 1;
  if (sw[i].level > sw[j].level) return -1;
  return 0;
}

// _topo_choose_best_switch.
void choose_best_switch(const TreeRun& r, const std::vector<uint32_t>& dist, int i, int& best) {
  if (best == -1 || dist[i] == kInfinite || r.swcnt[i] == 0) {
    if (r.swcnt[i] && dist[i] < kInfinite) best = i;
    return;
  }
  // A farther leaf never replaces the best (both conditions below need dist[i] <= dist[best]):
  // skip the comparison, which may climb to the roots.
  if (dist[i] > dist[best]) return;
  bool i_fit = false;
  const int tcs = compare_switches(r, i, best, i_fit);
  // 22.05 to 24.05.2: a closer leaf wins unless the other compares better; 24.05.3 ("fix
  // issues with switch distance optimization"): a closer leaf wins only if it fits.
  const bool closer = at_least(r.m.version, SlurmVersion::V24_05) ? i_fit : tcs >= 0;
  if ((dist[i] < dist[best] && closer) || (dist[i] == dist[best] && tcs > 0)) best = i;
}

// _decrement_node_cnt (24.05.3+, "Properly decrement node count on all switches"): a leaf's nodes, once used, no longer count for its ancestors.
void decrement_node_cnt(TreeRun& r, int taken, int s) {
  for (int i = s; i != kNoParent; i = r.m.switches[i].parent) r.swcnt[i] = r.swcnt[i] <= taken ? 0 : r.swcnt[i] - taken;
}

// Builds the candidate set: whole weight tiers, lightest first, below `top` until the job is
// covered. Every tier before the last becomes req2 (forced). Returns false if not covered.
bool collect_candidates(TreeRun& r, const std::vector<WeightGroup>& groups, const std::vector<char>& in_top,
                        std::vector<char>& best, std::vector<char>& req2, bool until_requested) {
  const int n = static_cast<int>(best.size());
  int best_cnt = 0;
  int64_t best_cpu = 0;
  bool sufficient = false, requested = false, any_req2 = false;
  for (const auto& g : groups) {
    if (until_requested ? requested : sufficient) break;
    if (best_cnt > 0) {
      for (int i = 0; i < n; ++i) req2[i] |= best[i];
      any_req2 = true;
    }
    WeightTier tier{g.weight, 0, 0, false};
    for (int i : g.nodes) {
      if (!in_top[i]) continue;
      ++tier.available;
      if (r.e.avail_cpus[i] == 0) continue;
      best[i] = 1;
      r.avail_cpu_per_node[i] = r.e.avail_cpus[i];
      best_cpu += r.e.avail_cpus[i];
      ++best_cnt;
      ++tier.used;
    }
    if (!sufficient)
      sufficient = best_cpu >= r.rem_cpus && enough_nodes(best_cnt, r.rem_nodes, r.e.min_nodes, r.e.req_nodes);
    requested = best_cnt >= r.rem_nodes && best_cpu >= r.rem_cpus;
    r.e.ex.tiers.push_back(tier);
  }
  if (any_req2)
    for (auto& t : r.e.ex.tiers)
      if (&t != &r.e.ex.tiers.back()) t.forced = t.used > 0;
  return sufficient;
}

// collect_candidates for plain trees, on counts: the same tiers, sums and stopping rule; sets
// r.last_rank (candidates: ranks up to it) and req2_rank (forced: ranks up to it, or -1).
bool collect_candidates_plain(TreeRun& r, const std::vector<int>& rank_avail, const std::vector<int>& leaf_cnt,
                              const std::vector<int64_t>& leaf_cpu, int& req2_rank, bool until_requested) {
  const auto& m = r.m;
  const int W = static_cast<int>(rank_avail.size()), S = static_cast<int>(m.switches.size());
  std::vector<int> top_cnt(W, 0);
  std::vector<int64_t> top_cpu(W, 0);
  for (int l = 0; l < S; ++l)
    if (m.switches[l].level == 0 && r.leaf_in_top[l])
      for (int k = 0; k < W; ++k) top_cnt[k] += leaf_cnt[l * W + k], top_cpu[k] += leaf_cpu[l * W + k];
  int best_cnt = 0;
  int64_t best_cpu = 0;
  bool sufficient = false, requested = false, any_req2 = false;
  for (int k = 0; k < W; ++k) {
    if (!rank_avail[k]) continue;  // weight_groups has a group only for available weights
    if (until_requested ? requested : sufficient) break;
    if (best_cnt > 0) {
      req2_rank = r.last_rank;
      any_req2 = true;
    }
    r.last_rank = k;
    best_cnt += top_cnt[k];
    best_cpu += top_cpu[k];
    if (!sufficient)
      sufficient = best_cpu >= r.rem_cpus && enough_nodes(best_cnt, r.rem_nodes, r.e.min_nodes, r.e.req_nodes);
    requested = best_cnt >= r.rem_nodes && best_cpu >= r.rem_cpus;
    if (r.e.explain) r.e.ex.tiers.push_back({m.rank_weight[k], top_cnt[k], top_cnt[k], false});
  }
  if (any_req2)
    for (auto& t : r.e.ex.tiers)
      if (&t != &r.e.ex.tiers.back()) t.forced = t.used > 0;
  return sufficient;
}

}  // namespace

bool eval_tree(Eval& e) {
  const auto& m = e.m;
  const int S = static_cast<int>(m.switches.size());
  const int N = static_cast<int>(e.node_map.size());
  const bool v24 = at_least(m.version, SlurmVersion::V24_05);
  const int W = static_cast<int>(m.rank_weight.size());
  TreeRun r(e, m.plain_tree);
  e.ex.algorithm = "topology/tree";
  std::vector<WeightGroup> groups;
  if (!r.plain) groups = weight_groups(m, e.node_map);

  // The top switch: the highest level whose available nodes (24.05+: and CPUs) can hold the
  // job; among equal levels a later line whose lightest node is no heavier wins.
  r.swcnt.assign(S, 0);
  r.swcpu.assign(S, 0);
  std::vector<uint64_t> lightest(S, UINT64_MAX);
  // Plain tree: available nodes and their CPUs per (leaf, weight rank), then up the parents.
  std::vector<int> leaf_cnt, rank_avail;
  std::vector<int64_t> leaf_cpu;
  auto up = [&](int leaf, auto&& f) {
    for (int s = leaf; s != kNoParent; s = m.switches[s].parent) f(s);
  };
  if (r.plain) {
    // Slots (leaf, rank), then one per rank for the nodes under no leaf. Branch-free (busy
    // nodes add 0); sums stay in registers while the slot does not change (a leaf's nodes
    // are mostly consecutive), so the adds do not wait on each other through memory.
    leaf_cnt.assign(static_cast<size_t>(S + 1) * W, 0);
    leaf_cpu.assign(static_cast<size_t>(S + 1) * W, 0);
    rank_avail.assign(W, 0);
    const char* map = e.node_map.data();
    const int* cpus = e.avail_cpus.data();  // 0 where not available
    const int* slots = m.leaf_slot.data();
    const uint8_t* ranks = m.rank8.data();
    // Few weights: per run of one leaf and per rank, loops without branches or scatter, which
    // the compiler vectorises.
    if (W <= 4 && !m.rank8.empty()) {
      for (const auto& run : m.leaf_runs) {
        for (int k = 0; k < W; ++k) {
          int cnt = 0;
          int64_t cpu = 0;
          for (int n = run.begin; n < run.end; ++n) {
            const int on = (map[n] != 0) & (ranks[n] == k);
            cnt += on;
            cpu += cpus[n] & -on;
          }
          leaf_cnt[run.leaf * W + k] += cnt;
          leaf_cpu[run.leaf * W + k] += cpu;
        }
      }
    }
    int slot = N ? slots[0] : 0, cnt = 0;
    int64_t cpu = 0;
    for (int n = (W <= 4 && !m.rank8.empty()) ? N : 0; n < N; ++n) {
      if (slots[n] != slot) {
        leaf_cnt[slot] += cnt, leaf_cpu[slot] += cpu;
        slot = slots[n], cnt = 0, cpu = 0;
      }
      const int on = map[n] != 0;
      cnt += on;
      cpu += cpus[n] * on;
    }
    if (N && !(W <= 4 && !m.rank8.empty())) leaf_cnt[slot] += cnt, leaf_cpu[slot] += cpu;
    for (int l = 0; l <= S; ++l)
      for (int k = 0; k < W; ++k) rank_avail[k] += leaf_cnt[l * W + k];
    for (int l = 0; l < S; ++l) {
      if (m.switches[l].level != 0) continue;
      int cnt = 0;
      int64_t cpu = 0;
      uint64_t light = UINT64_MAX;
      for (int k = W - 1; k >= 0; --k)
        if (leaf_cnt[l * W + k]) cnt += leaf_cnt[l * W + k], cpu += leaf_cpu[l * W + k], light = m.rank_weight[k];
      if (!cnt) continue;
      up(l, [&](int s) {
        r.swcnt[s] += cnt;
        r.swcpu[s] += cpu;
        lightest[s] = std::min(lightest[s], light);
      });
    }
  } else {
    for (int n = 0; n < N; ++n) {
      if (!e.node_map[n]) continue;
      r.above(n, [&](int s) {
        ++r.swcnt[s];
        r.swcpu[s] += e.avail_cpus[n];
        lightest[s] = std::min(lightest[s], m.weight[n]);
      });
    }
  }
  int top = -1;
  uint64_t top_weight = 0;
  for (int s = 0; s < S; ++s) {
    if (!enough_nodes(r.swcnt[s], r.rem_nodes, e.min_nodes, e.req_nodes)) continue;
    if (v24 && r.rem_cpus > r.swcpu[s]) continue;
    const uint64_t w = lightest[s];
    if (w == UINT64_MAX) continue;
    if (top == -1 || (m.switches[s].level >= m.switches[top].level && w <= top_weight)) {
      top = s;
      top_weight = w;
    }
  }
  if (top == -1) {
    e.reason = "no switch has " + std::to_string(r.rem_nodes) + " free nodes below it";
    return false;
  }
  if (e.explain) e.ex.top = m.switches[top].name;
  e.ex.top_level = m.switches[top].level;

  std::vector<char> best, req2;
  int req2_rank = -1;  // plain: the forced tiers are the ranks up to this one
  if (r.plain) {
    r.leaf_in_top.assign(S, 0);
    for (int l = 0; l < S; ++l)
      if (m.switches[l].level == 0) up(l, [&](int s) { r.leaf_in_top[l] |= s == top; });
    if (!collect_candidates_plain(r, rank_avail, leaf_cnt, leaf_cpu, req2_rank, v24)) {
      e.reason = "not enough usable nodes below " + m.switches[top].name;
      return false;
    }
  } else {
    for (int n : m.switches[top].nodes)
      if (e.node_map[n]) r.in_scope[n] = 1;
    best.assign(N, 0);
    req2.assign(N, 0);
    if (!collect_candidates(r, groups, r.in_scope, best, req2, v24)) {
      e.reason = "not enough usable nodes below " + m.switches[top].name;
      return false;
    }
  }

  auto finish = [&](bool ok) {
    if (!ok) return false;
    e.leaf_count = r.count_leaves();  // from r.taken
    e.node_map = std::move(r.chosen);
    e.allocated = std::move(r.taken);  // a few hundred at most: sorting beats a scan of the table
    std::sort(e.allocated.begin(), e.allocated.end());
    if (e.job.switches > 0) {
      const int wait = e.job.switch_wait < 0 ? m.max_switch_wait : std::min(e.job.switch_wait, m.max_switch_wait);
      // The job has waited 0 s at its first evaluation.
      e.best_switch = wait <= 0 || e.leaf_count <= e.job.switches;
    }
    return true;
  };

  r.required.assign(S, 0);
  const bool have_req2 = r.plain ? req2_rank >= 0 : std::find(req2.begin(), req2.end(), 1) != req2.end();
  if (have_req2) {
    if (r.plain) {
      for (int n = 0; n < N && r.max_nodes > 0; ++n)
        if (r.in_top(n) && m.weight_rank[n] <= req2_rank) r.take(n);
      for (int l = 0; l < S; ++l) {
        if (m.switches[l].level != 0 || !r.leaf_in_top[l]) continue;
        int forced = 0;
        for (int k = 0; k <= req2_rank; ++k) forced += leaf_cnt[l * W + k];
        if (forced) up(l, [&](int s) { r.required[s] = 1; });
      }
    } else {
      for (int n = 0; n < N && r.max_nodes > 0; ++n)
        if (req2[n]) r.take(n);
      r.require_overlapping(req2);
    }
    if (r.done()) {
      if (e.explain) e.ex.notes.push_back("the lighter tiers alone cover the job");
      return finish(true);
    }
    if (r.max_nodes <= 0) {
      e.reason = "reached the maximum node count";
      return false;
    }
  }

  // Counts on the candidate set (plus what is already taken).
  if (r.plain) {
    r.swcnt.assign(S, 0);
    for (int l = 0; l < S; ++l) {
      if (m.switches[l].level != 0 || !r.leaf_in_top[l]) continue;
      int cnt = 0;
      for (int k = 0; k <= r.last_rank; ++k) cnt += leaf_cnt[l * W + k];
      if (cnt) up(l, [&](int s) { r.swcnt[s] += cnt; });
    }
  } else {
    r.restrict_to(best);
  }

  // Leaves holding forced nodes are filled first.
  if (have_req2) {
    int taken_total = 0;  // 24.05.3+ sums over the leaves, as Slurm does
    for (int s = 0; s < S; ++s) {
      if (!r.required[s] || m.switches[s].level != 0) continue;
      LeafStep step{e.explain ? m.switches[s].name : std::string(), kInfinite, r.swcnt[s], 0,
                    e.explain ? "holds forced nodes" : ""};
      for (int n : m.switches[s].nodes) {
        if (!r.usable(n)) continue;
        r.take(n);
        ++step.taken;
        ++taken_total;
        if (r.done()) {
          if (e.explain) e.ex.steps.push_back(step);
          return finish(true);
        }
      }
      if (e.explain) e.ex.steps.push_back(step);
      if (v24) decrement_node_cnt(r, taken_total, s);
    }
  }

  std::vector<uint32_t> dist(S, 0);
  for (int s = 0; s < S; ++s)
    if (r.required[s]) add_dist(m, dist, s);
  // The leaves still to choose from, in line order. choose_best_switch passes over a leaf
  // with no candidates left, and from here on counts only fall: a leaf that empties leaves
  // the list for good, so each step looks at the leaves that can still be picked.
  std::vector<int> open;
  for (int s = 0; s < S; ++s)
    if (!r.required[s] && m.switches[s].level == 0 && r.swcnt[s] > 0) open.push_back(s);
  int prev_rem = r.rem_nodes + 1;
  while (true) {
    if (prev_rem == r.rem_nodes) break;  // stalled
    prev_rem = r.rem_nodes;
    int pick = -1;
    size_t kept = 0;
    for (int s : open) {
      if (r.swcnt[s] == 0) continue;
      open[kept++] = s;
      choose_best_switch(r, dist, s, pick);
    }
    open.resize(kept);
    if (pick == -1) break;
    LeafStep step{e.explain ? m.switches[pick].name : std::string(), dist[pick], r.swcnt[pick], 0, ""};
    if (e.explain) step.why = r.swcnt[pick] >= r.rem_nodes ? "fits the rest" : "the rest does not fit one leaf";
    add_dist(m, dist, pick);
    for (int n : m.switches[pick].nodes) {
      if (r.max_nodes <= 0) break;
      if (!r.usable(n)) continue;
      r.take(n);
      ++step.taken;
      if (r.done()) {
        if (e.explain) e.ex.steps.push_back(step);
        return finish(true);
      }
    }
    if (e.explain) e.ex.steps.push_back(step);
    if (v24) decrement_node_cnt(r, r.swcnt[pick], pick);
    r.swcnt[pick] = 0;
  }
  if (r.min_rem_nodes <= 0 && r.rem_cpus <= 0) return finish(true);
  e.reason = "the leaves below " + m.switches[top].name + " cannot supply " + std::to_string(e.min_nodes) + " nodes";
  return false;
}

bool eval_dragonfly(Eval& e) {
  const auto& m = e.m;
  const int S = static_cast<int>(m.switches.size());
  const int N = static_cast<int>(e.node_map.size());
  TreeRun r(e, false);
  e.ex.algorithm = "topology/tree, TopologyParam=Dragonfly";
  int req_switch = e.job.switches;
  if (req_switch > 1) {
    e.ex.notes.push_back("dragonfly resets --switches above 1 to none");
    req_switch = 0;
  }
  const auto groups = weight_groups(m, e.node_map);

  // Top switch: the highest level with any available node, first line on ties; no size check.
  int top = -1;
  for (int s = 0; s < S; ++s) {
    bool any = false;
    for (int n : m.switches[s].nodes)
      if (e.node_map[n]) {
        any = true;
        break;
      }
    if (any && (top == -1 || m.switches[s].level > m.switches[top].level)) top = s;
  }
  if (top == -1) {
    e.reason = "no switch has a free node";
    return false;
  }
  e.ex.top = m.switches[top].name;
  e.ex.top_level = m.switches[top].level;
  // Dragonfly keeps the top switch's whole bitmap (busy nodes too) until the candidates are known.
  std::vector<char> in_top(N, 0);
  for (int n : m.switches[top].nodes) r.in_scope[n] = 1, in_top[n] = e.node_map[n];

  std::vector<char> best(N, 0), req2(N, 0);
  if (!collect_candidates(r, groups, in_top, best, req2, false)) {
    e.reason = "not enough usable nodes below " + m.switches[top].name;
    return false;
  }
  auto finish = [&]() {
    e.node_map = r.chosen;
    e.leaf_count = r.count_leaves();
    if (req_switch > 0) {
      const int wait = e.job.switch_wait < 0 ? m.max_switch_wait : std::min(e.job.switch_wait, m.max_switch_wait);
      e.best_switch = wait <= 0 || e.leaf_count <= req_switch;
    }
    return true;
  };

  r.required.assign(S, 0);
  int leaf_switch_count = 0;
  if (std::find(req2.begin(), req2.end(), 1) != req2.end()) {
    for (int n = 0; n < N && r.max_nodes > 0; ++n)
      if (req2[n]) r.take(n);
    r.require_overlapping(req2);
    for (int s = 0; s < S; ++s) leaf_switch_count += r.required[s] && m.switches[s].level == 0;
    if (r.max_nodes <= 0) {
      e.reason = "reached the maximum node count";
      return false;
    }
    if (r.done()) return finish();
  }
  r.restrict_to(best);

  // Nothing forced yet: start at the leaf with the most candidates (first line on ties).
  if (leaf_switch_count == 0) {
    int pick = -1;
    for (int s = 0; s < S; ++s)
      if (m.switches[s].level == 0 && (pick == -1 || r.swcnt[s] > r.swcnt[pick])) pick = s;
    if (pick != -1) {
      leaf_switch_count = 1;
      r.required[pick] = 1;
    }
  }
  // One leaf in use: finish there if it can hold the whole job.
  if (leaf_switch_count == 1) {
    int s = 0;
    int free_nodes = 0;
    int64_t free_cpus = 0;
    for (; s < S; ++s) {
      if (!r.required[s] || m.switches[s].level != 0) continue;
      r.each(s, [&](int n) {
        if (!r.chosen[n] && r.avail_cpu_per_node[n]) ++free_nodes, free_cpus += r.avail_cpu_per_node[n];
      });
      break;
    }
    if (s < S && free_cpus >= r.rem_cpus && enough_nodes(free_nodes, r.rem_nodes, e.min_nodes, e.req_nodes)) {
      LeafStep step{m.switches[s].name, kInfinite, free_nodes, 0, "holds the whole job"};
      for (int n : m.switches[s].nodes) {
        if (!r.in_scope[n] || !r.cand[n] || r.chosen[n] || !r.avail_cpu_per_node[n]) continue;
        r.take(n);
        ++step.taken;
        if (r.done()) {
          e.ex.steps.push_back(step);
          return finish();
        }
        if (r.max_nodes <= 0) {
          e.reason = "reached the maximum node count";
          return false;
        }
      }
      e.ex.steps.push_back(step);
    }
  }
  // Otherwise one node per leaf, round robin in line order.
  std::vector<int> per_leaf(S, 0);
  int prev_rem = r.rem_nodes + 1;
  bool ok = false;
  while (!ok) {
    if (prev_rem == r.rem_nodes) break;
    prev_rem = r.rem_nodes;
    for (int s = 0; s < S && !ok; ++s) {
      if (m.switches[s].level != 0) continue;
      for (int n : m.switches[s].nodes) {
        if (!r.in_scope[n] || !r.cand[n] || r.chosen[n] || !r.avail_cpu_per_node[n]) continue;
        r.take(n);
        ++per_leaf[s];
        if (r.done()) ok = true;
        else if (r.max_nodes <= 0) {
          e.reason = "reached the maximum node count";
          return false;
        }
        break;
      }
    }
  }
  for (int s = 0; s < S; ++s)
    if (per_leaf[s]) e.ex.steps.push_back({m.switches[s].name, kInfinite, r.swcnt[s], per_leaf[s], "round robin"});
  if (ok || (r.min_rem_nodes <= 0 && r.rem_cpus <= 0)) return finish();
  e.reason = "the leaves below " + m.switches[top].name + " cannot supply " + std::to_string(e.min_nodes) + " nodes";
  return false;
}

}  // namespace slurmtopo::select_detail
