// topology/block (23.11+): eval_nodes_block (the file is read by slurm/block_topology.h). A job is
// placed in one block of the smallest configured size that holds it: base blocks grouped in
// line order (2^k of them per block). Among the blocks that fit, the one whose lightest node is
// lightest wins, then the one with the fewest free nodes (a later block on ties). Inside it,
// base blocks are filled fullest-that-fits first, keeping to as few lower-level blocks as the
// job needs. With --segment the job is placed one segment at a time, each as a job of the
// segment's size on the nodes the earlier segments left (24.11+); --consolidate-segments keeps
// every segment in the one block that holds the whole job, --spread-segments gives each its
// own base blocks (25.11+). Required nodes and hierarchical resources are not modelled.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <string>

#include "base/input_error.h"
#include "simulate/scheduler/slurm_select_model.h"

namespace slurmtopo {


namespace select_detail {

namespace {

bool same_block(int a, int b, int level) { return (a >> level) == (b >> level); }

// _get_block_level: the smallest configured aggregation (in base blocks, as a power of two)
// that holds rem_nodes, and the next lower configured level (llblock).
int get_block_level(const SlurmSelect::Model& m, int rem_nodes, int& llblock_level) {
  const int per_block = (rem_nodes + m.bblock_node_cnt - 1) / m.bblock_node_cnt;
  if (per_block <= 0) {
    llblock_level = 0;
    return -1;
  }
  const int level = static_cast<int>(std::ceil(std::log2(per_block)));
  llblock_level = 0;
  if (level > 0)
    for (int l = level - 1; l >= 0; --l)
      if (m.block_levels & (1u << l)) {
        llblock_level = l;
        break;
      }
  for (int l = level; l < 32; ++l)
    if (m.block_levels & (1u << l)) return l;
  return -1;
}

struct Choice {
  int inx = -1;
  bool fit = false;
  bool same = true;
};

// _choose_best_bblock: prefer base blocks in a lower-level block already in use, then a
// lower-level block that fits (the smallest), or the largest if none does; then the fullest
// base block that fits, else the largest (later ones win ties).
void choose_best_bblock(const std::vector<char>& required, int ll_level, int rem_nodes, const std::vector<int>& on_bblock,
                        const std::vector<int>* on_llblock, int i, Choice& best) {
  const bool fit = on_bblock[i] >= rem_nodes;
  const int count = static_cast<int>(on_bblock.size());
  if (on_llblock && !same_block(best.inx, i, ll_level)) {
    bool same = false;
    const int lo = i & (~0 << ll_level), hi = i | ~(~0 << ll_level);
    for (int j = lo; j < count && j <= hi; ++j)
      if (required[j] && (same = same_block(j, i, ll_level))) break;
    if (best.inx == -1 || (same && !best.same)) {
      best = {i, fit, same};
      return;
    }
    if (!same && best.same) return;
    const int best_ll = (*on_llblock)[best.inx >> ll_level], ll = (*on_llblock)[i >> ll_level];
    const bool ll_fit = ll >= rem_nodes, best_ll_fit = best_ll >= rem_nodes;
    if (ll_fit && !best_ll_fit) {
      best = {i, fit, same};
      return;
    }
    if (!ll_fit && best_ll_fit) return;
    if (ll_fit && best_ll_fit) {
      if (ll < best_ll) {
        best = {i, fit, same};
        return;
      }
      if (ll > best_ll) return;
    } else {
      if (ll > best_ll) {
        best = {i, fit, same};
        return;
      }
      if (ll < best_ll) return;
    }
  }
  if (best.inx == -1 || (fit && !best.fit) || (!fit && !best.fit && on_bblock[i] >= on_bblock[best.inx]) ||
      (fit && on_bblock[i] <= on_bblock[best.inx])) {
    best.inx = i;
    best.fit = fit;
  }
}

// The persistent state of one eval_nodes_block call across its segments.
struct SegmentRun {
  int segment_size = 0;  // 0: the job is one piece
  int segment_cnt = 1;
  int as_rem_nodes = -1;     // the whole job's node count, with segments
  int block_per_asblock = 0;  // --consolidate-segments: blocks per block that holds every segment
  int asblock_cnt = -1;
  int asblock_inx = -1;       // the block of blocks the first segment chose
  std::vector<char> orig;     // orig_node_map: the segments' candidates
  std::vector<char> alloc;    // alloc_node_map: nodes of the segments placed so far; empty before the first
};

// One pass of eval_nodes_block from its next_segment label: a job (or one segment) of
// rem_nodes nodes on e.node_map. On success e.node_map holds the nodes taken; `required`
// the base blocks they came from.
bool place_piece(Eval& e, SegmentRun& run, int rem_nodes, int req_nodes, std::vector<char>& bblock_required) {
  const auto& m = e.m;
  const int N = static_cast<int>(e.node_map.size());
  const int B = static_cast<int>(m.blocks.size());
  const bool segmented = run.segment_size > 0;
  const bool first_piece = run.alloc.empty();
  int min_rem_nodes = segmented ? e.min_nodes / run.segment_cnt : e.min_nodes;
  int max_nodes = segmented ? e.max_nodes / run.segment_cnt : e.max_nodes;
  int64_t rem_cpus = segmented ? e.min_cpus / run.segment_cnt : e.min_cpus;
  // eval_nodes_get_rem_max_cpus is min_cpus; a segmented job divides max_cpus, which salloc
  // leaves at NO_VAL.
  int64_t rem_max_cpus = segmented ? int64_t{0xfffffffe} / run.segment_cnt : e.min_cpus;

  int ll_level = 0;
  const int level = get_block_level(m, rem_nodes, ll_level);
  const int bblock_per_block = level < 0 ? B : (1 << level);
  const int block_cnt = level < 0 ? 1 : (B + bblock_per_block - 1) / bblock_per_block;
  const int bblock_per_llblock = 1 << ll_level;
  const int llblock_size = bblock_per_llblock * m.bblock_node_cnt;
  int max_llblock = (rem_nodes + llblock_size - 1) / llblock_size;

  bool any = false;
  for (int n = 0; n < N && !any; ++n) any = e.node_map[n];
  if (!any) {
    // Nothing left for this segment: the earlier ones are the hint.
    e.reason = "no free node is left for the next segment";
    if (!first_piece) {
      e.node_map = run.alloc;
      e.action = Eval::Action::RetryHint;
    } else {
      e.action = Eval::Action::Break;
    }
    return false;
  }
  const auto groups = weight_groups(m, e.node_map);

  const bool use_ll = bblock_per_block != bblock_per_llblock * max_llblock;
  const int llblock_cnt = (B + bblock_per_llblock - 1) / bblock_per_llblock;
  std::vector<int> on_llblock(use_ll ? llblock_cnt : 0, 0);
  std::vector<std::vector<char>> block_map(block_cnt, std::vector<char>(N, 0));
  std::vector<int> on_block(block_cnt, 0);
  for (int i = 0; i < B; ++i) {
    const int blk = i / bblock_per_block;
    int avail = 0;
    for (int n : m.blocks[i].nodes) {
      block_map[blk][n] = 1;
      avail += e.node_map[n];
    }
    on_block[blk] += avail;
    if (use_ll) on_llblock[i / bblock_per_llblock] += avail;
  }
  // --consolidate-segments: on the first segment, only blocks inside a block of blocks that
  // has the whole job's nodes free.
  std::vector<int> on_asblock;
  if (run.block_per_asblock && first_piece) {
    on_asblock.assign(run.asblock_cnt, 0);
    for (int i = 0; i < block_cnt; ++i) on_asblock[i / run.block_per_asblock] += on_block[i];
  }

  int block_inx = -1, block_node_cnt = 0;
  uint64_t block_weight = 0;
  for (int i = 0; i < block_cnt; ++i) {
    if (!on_asblock.empty() && on_asblock[i / run.block_per_asblock] < run.as_rem_nodes) continue;
    for (int n = 0; n < N; ++n) block_map[i][n] = block_map[i][n] && e.node_map[n];
    const int bnc = on_block[i];
    int avail_bnc = bnc;
    if (use_ll) {
      const int ll_per_block = bblock_per_block / bblock_per_llblock;
      const int offset = i * ll_per_block;
      const int span = std::min(ll_per_block, llblock_cnt - offset);
      std::sort(on_llblock.begin() + offset, on_llblock.begin() + offset + span, std::greater<int>());
      avail_bnc = 0;
      for (int j = 0; j < std::min(max_llblock, span); ++j) avail_bnc += on_llblock[offset + j];
    }
    int64_t cpus = 0;
    uint64_t lightest = UINT64_MAX;
    for (int n = 0; n < N; ++n)
      if (block_map[i][n]) cpus += e.avail_cpus[n], lightest = std::min(lightest, m.weight[n]);
    if (!enough_nodes(avail_bnc, rem_nodes, e.min_nodes, req_nodes) || rem_cpus > cpus) continue;
    if (lightest == UINT64_MAX) continue;
    if (block_inx == -1 || lightest < block_weight || (lightest == block_weight && bnc <= block_node_cnt)) {
      block_inx = i;
      block_weight = lightest;
      block_node_cnt = bnc;
    }
  }
  if (block_inx == -1) {
    e.reason = "no block of " + std::to_string(bblock_per_block) + " base blocks has " + std::to_string(rem_nodes) +
               " free nodes" + (run.segment_cnt > 1 ? " for a segment" : "");
    e.action = Eval::Action::Break;
    std::fill(e.node_map.begin(), e.node_map.end(), 0);
    return false;
  }
  if (e.explain) {
    const int first = block_inx * bblock_per_block, last = std::min(B, first + bblock_per_block) - 1;
    const std::string name = first == last ? m.blocks[first].name : m.blocks[first].name + ".." + m.blocks[last].name;
    if (first_piece) {
      e.ex.top = name;
      e.ex.top_level = level;
    } else if (e.ex.top.find(name) == std::string::npos) {
      e.ex.top += ", " + name;
    }
  }
  if (run.block_per_asblock && first_piece) {
    run.asblock_inx = block_inx / run.block_per_asblock;
    std::vector<char> keep(N, 0);
    for (int i = 0; i < block_cnt; ++i)
      if (i / run.block_per_asblock == run.asblock_inx)
        for (int n = 0; n < N; ++n) keep[n] |= block_map[i][n];
    for (int n = 0; n < N; ++n) run.orig[n] = run.orig[n] && keep[n];
  }

  // Weight tiers inside the block, as in the tree algorithm.
  std::vector<char> best(N, 0), req2(N, 0), chosen(N, 0);
  std::vector<int> avail_cpu_per_node(N, 0);
  int best_cnt = 0;
  int64_t best_cpu = 0;
  bool sufficient = false, requested = false, any_req2 = false;
  for (const auto& g : groups) {
    if (requested) break;
    if (best_cnt > 0) {
      for (int n = 0; n < N; ++n) req2[n] |= best[n];
      any_req2 = true;
    }
    WeightTier tier{g.weight, 0, 0, false};
    for (int n : g.nodes) {
      if (!block_map[block_inx][n]) continue;
      ++tier.available;
      if (!e.avail_cpus[n]) continue;
      best[n] = 1;
      avail_cpu_per_node[n] = e.avail_cpus[n];
      best_cpu += e.avail_cpus[n];
      ++best_cnt;
      ++tier.used;
    }
    if (!sufficient) sufficient = best_cpu >= rem_cpus && enough_nodes(best_cnt, rem_nodes, e.min_nodes, req_nodes);
    requested = best_cnt >= rem_nodes && best_cpu >= rem_cpus;
    if (first_piece) e.ex.tiers.push_back(tier);
  }
  if (any_req2 && first_piece)
    for (size_t t = 0; t + 1 < e.ex.tiers.size(); ++t) e.ex.tiers[t].forced = e.ex.tiers[t].used > 0;
  std::fill(e.node_map.begin(), e.node_map.end(), 0);
  if (!sufficient) {
    e.reason = "not enough usable nodes in the chosen block";
    e.action = Eval::Action::Default;
    return false;
  }
  auto take = [&](int n) {
    const int cpus = cpus_to_use(e, avail_cpu_per_node[n], rem_max_cpus, min_rem_nodes);
    --rem_nodes;
    --min_rem_nodes;
    --max_nodes;
    rem_cpus -= cpus;
    rem_max_cpus -= cpus;
    chosen[n] = 1;
  };
  auto done = [&] { return rem_nodes <= 0 && rem_cpus <= 0; };
  auto finish = [&] {
    e.node_map = chosen;
    return true;
  };

  std::fill(bblock_required.begin(), bblock_required.end(), 0);
  const int first_bblock = block_inx * bblock_per_block, end_bblock = std::min(B, first_bblock + bblock_per_block);
  if (any_req2) {
    for (int n = 0; n < N && max_nodes > 0; ++n)
      if (req2[n]) take(n);
    if (done()) return finish();
    if (max_nodes <= 0) {
      e.reason = "reached the maximum node count";
      e.node_map = chosen;
      e.action = Eval::Action::RetryHint;
      return false;
    }
    int last_ll = -1;
    for (int i = first_bblock; i < end_bblock; ++i) {
      if (bblock_required[i]) {
        last_ll = i;
        continue;
      }
      bool overlap = false;
      for (int n : m.blocks[i].nodes) overlap = overlap || req2[n];
      if (overlap) {
        bblock_required[i] = 1;
        if (!same_block(last_ll, i, ll_level)) {
          --max_llblock;
          last_ll = i;
        }
      }
    }
  }
  if (max_llblock < 0) {
    e.reason = "the forced (lighter) nodes span more lower-level blocks than the job may use";
    e.node_map = chosen;
    e.action = Eval::Action::Default;
    return false;
  }
  if (any_req2) {
    for (int i = 0; i < B; ++i) {
      if (!bblock_required[i]) continue;
      LeafStep step{m.blocks[i].name, kInfinite, 0, 0, "holds forced nodes"};
      for (int n : m.blocks[i].nodes) {
        if (!block_map[block_inx][n] || !best[n] || chosen[n] || !avail_cpu_per_node[n]) continue;
        ++step.available;
        take(n);
        ++step.taken;
        if (done()) {
          if (e.explain) e.ex.steps.push_back(step);
          return finish();
        }
      }
      if (e.explain) e.ex.steps.push_back(step);
    }
  }

  std::vector<int> on_bblock(B, 0);
  std::vector<std::vector<int>> bblock_nodes(B);
  if (use_ll) std::fill(on_llblock.begin(), on_llblock.end(), 0);
  for (int i = first_bblock; i < end_bblock; ++i) {
    if (bblock_required[i]) continue;
    for (int n : m.blocks[i].nodes)
      if (block_map[block_inx][n] && best[n]) bblock_nodes[i].push_back(n);
    on_bblock[i] = static_cast<int>(bblock_nodes[i].size());
    if (use_ll) on_llblock[i / bblock_per_llblock] += on_bblock[i];
  }

  int prev_rem = rem_nodes + 1;
  while (true) {
    if (prev_rem == rem_nodes) break;
    prev_rem = rem_nodes;
    Choice pick;
    for (int i = first_bblock; i < end_bblock; ++i) {
      if (bblock_required[i]) continue;
      choose_best_bblock(bblock_required, ll_level, rem_nodes, on_bblock, use_ll ? &on_llblock : nullptr, i, pick);
    }
    if (pick.inx == -1) break;
    if (max_llblock <= 0 && !pick.same) break;
    bblock_required[pick.inx] = 1;
    LeafStep step{m.blocks[pick.inx].name, kInfinite, on_bblock[pick.inx], 0,
                  pick.fit ? "fits the rest" : "the rest does not fit one base block"};
    for (int n : bblock_nodes[pick.inx]) {
      if (max_nodes <= 0) break;
      if (chosen[n] || !avail_cpu_per_node[n]) continue;
      take(n);
      ++step.taken;
      if (done()) {
        if (e.explain) e.ex.steps.push_back(step);
        return finish();
      }
    }
    if (e.explain) e.ex.steps.push_back(step);
    if (!pick.same) --max_llblock;
  }
  if (min_rem_nodes <= 0 && rem_cpus <= 0) return finish();
  e.reason = "the base blocks of the chosen block cannot supply the " + std::string(segmented ? "segment" : "job");
  e.node_map = chosen;
  if (!first_piece)
    for (int n = 0; n < N; ++n) e.node_map[n] |= run.alloc[n];
  e.action = Eval::Action::RetryHint;
  return false;
}

}  // namespace

bool eval_block(Eval& e) {
  const auto& m = e.m;
  const int N = static_cast<int>(e.node_map.size());
  const int B = static_cast<int>(m.blocks.size());
  e.ex.algorithm = "topology/block";
  int rem_nodes = std::min(e.min_nodes, e.req_nodes), req_nodes = e.req_nodes;

  SegmentRun run;
  run.segment_size = e.job.segment;
  if (run.segment_size > 0) {
    // 24.05 to 25.05 (V24_05 rules) refuse a segment larger than a base block; 26.05 ignores
    // one larger than the job; before 26.05 such a size cannot divide the job and is refused.
    if (m.version < SlurmVersion::V25_11 && run.segment_size > m.bblock_node_cnt) {
      e.reason = "--segment=" + std::to_string(run.segment_size) + " is larger than a base block (" +
                 std::to_string(m.bblock_node_cnt) + " nodes), which Slurm before 25.11 does not support";
      e.action = Eval::Action::Permanent;
      return false;
    }
    if (m.version >= SlurmVersion::V26_05 && run.segment_size > rem_nodes) {
      if (e.explain)
        e.ex.notes.push_back("--segment=" + std::to_string(run.segment_size) + " is ignored: larger than the job");
      run.segment_size = 0;
    }
  }
  if (run.segment_size > 0 && rem_nodes % run.segment_size) {
    e.reason = "--segment=" + std::to_string(run.segment_size) + " does not divide the job's " +
               std::to_string(rem_nodes) + " nodes";
    e.action = Eval::Action::Permanent;
    return false;
  }
  if (run.segment_size > 0) {
    run.as_rem_nodes = rem_nodes;
    run.segment_cnt = rem_nodes / run.segment_size;
    rem_nodes = run.segment_size;
    if (run.segment_cnt > 1 && m.version >= SlurmVersion::V26_05) req_nodes /= run.segment_cnt;
  }
  // The level of one piece (the job, or a segment), as place_piece finds it for each.
  int ll = 0;
  const int level = get_block_level(m, rem_nodes, ll);
  const int bblock_per_block = level < 0 ? B : (1 << level);
  if (run.segment_size > 0) {
    if (e.job.consolidate_segments) {
      const int block_cnt = level < 0 ? 1 : (B + bblock_per_block - 1) / bblock_per_block;
      const int whole = e.job.spread_segments
                            ? (run.segment_size + m.bblock_node_cnt - 1) / m.bblock_node_cnt * m.bblock_node_cnt *
                                  run.segment_cnt
                            : run.as_rem_nodes;
      const int as_level = get_block_level(m, whole, ll);
      if (as_level < 0) {
        run.block_per_asblock = B;
        run.asblock_cnt = 1;
      } else {
        run.block_per_asblock = 1 << (as_level - std::max(level, 0));
        run.asblock_cnt = (block_cnt + run.block_per_asblock - 1) / run.block_per_asblock;
      }
    }
  }
  run.orig = e.node_map;
  std::vector<char> bblock_required(B, 0);
  for (int piece = 0; piece < run.segment_cnt; ++piece) {
    const size_t steps_before = e.ex.steps.size();
    const bool ok = place_piece(e, run, rem_nodes, req_nodes, bblock_required);
    if (!ok) {
      if (run.block_per_asblock && run.asblock_inx != -1) {
        // Every node of the consolidating block is dropped and the job tried elsewhere.
        std::fill(e.node_map.begin(), e.node_map.end(), 0);
        for (int i = 0; i < B; ++i)
          if (i / (run.block_per_asblock * bblock_per_block) == run.asblock_inx)
            for (int n : m.blocks[i].nodes) e.node_map[n] = 1;
        e.action = Eval::Action::Retry;
        e.reason += " (the consolidating block cannot hold every segment)";
      }
      return false;
    }
    if (e.explain && run.segment_cnt > 1) {
      std::string from;
      for (size_t k = steps_before; k < e.ex.steps.size(); ++k)
        if (e.ex.steps[k].taken > 0) from += (from.empty() ? "" : ", ") + e.ex.steps[k].name;
      e.ex.notes.push_back("segment " + std::to_string(piece + 1) + " of " + std::to_string(run.segment_cnt) + ": " +
                           std::to_string(rem_nodes) + " nodes from " + from);
    }
    if (run.alloc.empty()) run.alloc.assign(N, 0);
    for (int n = 0; n < N; ++n) run.alloc[n] |= e.node_map[n];
    if (piece + 1 == run.segment_cnt) break;
    if (e.job.spread_segments)
      for (int i = 0; i < B; ++i)
        if (bblock_required[i])
          for (int n : m.blocks[i].nodes) run.orig[n] = 0;
    for (int n = 0; n < N; ++n) e.node_map[n] = run.orig[n] && !run.alloc[n];
  }
  if (!run.alloc.empty()) e.node_map = run.alloc;
  e.leaf_count = 0;
  for (const auto& blk : m.blocks)
    for (int n : blk.nodes)
      if (e.node_map[n]) {
        ++e.leaf_count;
        break;
      }
  return true;
}

}  // namespace select_detail
}  // namespace slurmtopo
