// slurmctld's tables (node order, switch levels, parents, distances) and the path a job takes
// from node_scheduler through select/cons_tres (_job_test, choose_nodes) to _eval_nodes. Over
// 400 lines because the tables and the path are read together: the fast paths in the tree
// evaluation rely on what the tables record (plain trees, weight ranks, counter slots).
#include "simulate/scheduler/slurm_select.h"

#include <algorithm>
#include <deque>
#include <sstream>
#include <unordered_set>

#include "base/input_error.h"
#include "simulate/scheduler/slurm_select_model.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

using namespace select_detail;

TopologyParams parse_topology_params(const std::string& text) {
  TopologyParams p;
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, ',')) {
    std::string lower = word;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "dragonfly") p.dragonfly = true;
    else if (lower == "topooptional") p.topo_optional = true;
    else if (lower == "blockasnoderank") p.block_as_node_rank = true;
    else if (!lower.empty() && lower != "none")
      throw InputError("--topology-param", 0, "expected TopoOptional, Dragonfly or BlockAsNodeRank, got '" + word + "'");
  }
  return p;
}

NodeOrder node_table_order(SlurmRelease release, bool block, const TopologyParams& params) {
  if (!block) return NodeOrder::ByName;
  // topology_p_generate_node_ranking of topology/block: true without ranks (every node 0,
  // so the sort keeps slurm.conf's order) in 23.11-24.11, false in 25.05, BlockAsNodeRank
  // from 25.11.
  if (release >= SlurmRelease{23, 11} && release < SlurmRelease{25, 5}) return NodeOrder::AsConfigured;
  if (release >= SlurmRelease{25, 11} && params.block_as_node_rank) return NodeOrder::BlockRank;
  return NodeOrder::ByName;
}

namespace {

// switch_record_validate: levels resolved in passes over the file (a switch is one above its
// highest child), 20 passes at most, then the parent (last line listing a child wins) and
// hop counts between all switches.
void build_switches(SlurmSelect::Model& m, const ParsedTopology& topo) {
  if (!topo.errors.empty()) throw InputError(topo.file, topo.errors.front().line, topo.errors.front().message);
  const int count = static_cast<int>(topo.switches.size());
  if (count == 0) {
    if (m.version >= SlurmVersion::V25_11) throw InputError(topo.file, 0, "no switches configured (fatal in 25.11)");
    m.setup_notes.push_back("topology.conf has no switches: slurmctld runs without topology");
    return;
  }
  std::unordered_map<std::string, int> by_name;
  m.switches.resize(count);
  std::unordered_set<std::string> unknown;
  for (int i = 0; i < count; ++i) {
    const TopologyLine& line = topo.switches[i];
    if (!by_name.emplace(line.name, i).second)
      throw InputError(topo.file, line.line, "Switch (" + line.name + ") has already been defined");
    if (line.has_nodes && line.has_switches)
      throw InputError(topo.file, line.line, "switch " + line.name + " has both child switches and nodes");
    if (!line.has_nodes && !line.has_switches)
      throw InputError(topo.file, line.line, "switch " + line.name + " has neither child switches nor nodes");
    Switch& s = m.switches[i];
    s.name = line.name;
    s.line = line.line;
    s.level = line.has_nodes ? 0 : -1;
    for (const auto& n : line.nodes) {
      auto it = m.index.find(n);
      if (it == m.index.end()) unknown.insert(n);
      else s.nodes.push_back(it->second);
    }
    std::sort(s.nodes.begin(), s.nodes.end());
    s.nodes.erase(std::unique(s.nodes.begin(), s.nodes.end()), s.nodes.end());
  }
  if (!unknown.empty())
    m.setup_notes.push_back("Invalid hostnames in switch configuration: " +
                            compress_hostlist({unknown.begin(), unknown.end()}) + " (ignored)");
  std::vector<std::vector<int>> kids(count);
  for (int i = 0; i < count; ++i) {
    const TopologyLine& line = topo.switches[i];
    for (const auto& child : line.switches) {
      auto it = by_name.find(child);
      if (it == by_name.end() || it->second == i)
        throw InputError(topo.file, line.line, "Switch configuration " + line.name + " has invalid child (" + child + ")");
      kids[i].push_back(it->second);
    }
  }
  for (int depth = 1;; ++depth) {
    bool resolved = true;
    for (int i = 0; i < count; ++i) {
      Switch& s = m.switches[i];
      if (s.level != -1) continue;
      int level = -1;
      bool ready = true;
      for (int c : kids[i]) {
        if (m.switches[c].level == -1) {
          ready = false;
          break;
        }
        level = std::max(level, m.switches[c].level + 1);
      }
      if (!ready) {
        resolved = false;
        continue;
      }
      s.level = level;
      for (int c : kids[i]) s.nodes.insert(s.nodes.end(), m.switches[c].nodes.begin(), m.switches[c].nodes.end());
      std::sort(s.nodes.begin(), s.nodes.end());
      s.nodes.erase(std::unique(s.nodes.begin(), s.nodes.end()), s.nodes.end());
    }
    if (resolved) break;
    if (depth > 20) throw InputError(topo.file, 0, "Switch configuration is not a tree");
  }
  for (int i = 0; i < count; ++i) {
    m.switches[i].children = kids[i];
    for (int c : kids[i]) m.switches[c].parent = i;
  }
  // All-pairs hops over parent-child links (slurmctld runs Floyd-Warshall; BFS gives the same
  // shortest paths in O(S*(S+E)) instead of O(S^3)).
  std::vector<std::vector<int>> adj(count);
  for (int i = 0; i < count; ++i)
    for (int c : kids[i]) adj[i].push_back(c), adj[c].push_back(i);
  m.dist.assign(count, std::vector<uint32_t>(count, kInfinite));
  std::deque<int> queue;
  for (int s = 0; s < count; ++s) {
    auto& d = m.dist[s];
    d[s] = 0;
    queue.assign(1, s);
    while (!queue.empty()) {
      int u = queue.front();
      queue.pop_front();
      for (int v : adj[u])
        if (d[v] == kInfinite) d[v] = d[u] + 1, queue.push_back(v);
    }
  }
  std::vector<std::vector<int>> above(m.names.size());
  for (int s = 0; s < count; ++s)
    for (int n : m.switches[s].nodes) above[n].push_back(s);
  m.node_switch_at.assign(1, 0);
  for (const auto& list : above) {
    m.node_switch.insert(m.node_switch.end(), list.begin(), list.end());
    m.node_switch_at.push_back(static_cast<int>(m.node_switch.size()));
  }
  // Plain tree (see the Model): each node's switches are one leaf and its parent chain.
  m.plain_tree = true;
  m.node_leaf.assign(m.names.size(), -1);
  for (size_t n = 0; n < above.size() && m.plain_tree; ++n) {
    int leaf = -1;
    for (int s : above[n])
      if (m.switches[s].level == 0) {
        if (leaf != -1) m.plain_tree = false;
        leaf = s;
      }
    std::vector<int> chain;
    for (int s = leaf; s != kNoParent && leaf != -1; s = m.switches[s].parent) {
      if (chain.size() > above[n].size()) break;
      chain.push_back(s);
    }
    std::vector<int> listed = above[n];
    std::sort(chain.begin(), chain.end());
    std::sort(listed.begin(), listed.end());
    if (chain != listed) m.plain_tree = false;
    m.node_leaf[n] = leaf;
  }
  std::vector<char> covered(m.names.size(), 0);
  for (const auto& s : m.switches)
    if (s.level == 0)
      for (int n : s.nodes) covered[n] = 1;
  std::vector<std::string> lacking;
  for (size_t n = 0; n < covered.size(); ++n)
    if (!covered[n]) lacking.push_back(m.names[n]);
  if (!lacking.empty())
    m.setup_notes.push_back("switches lack access to " + std::to_string(lacking.size()) +
                            " nodes: " + compress_hostlist(lacking) + " (topology placement never uses them)");
  m.tree = true;
}

void build_blocks(SlurmSelect::Model& m, const BlockTopology& topo) {
  // V22_05 stands for 22.05 to 24.05.2: 22.05 and 23.02 have no topology/block, and 23.11's
  // block selection (BlockLevels=) is not modelled.
  if (m.version == SlurmVersion::V22_05)
    throw InputError(topo.file, 0, std::string(describe(TopologyForm::BlockConf)) + " needs Slurm " +
                                       to_string(introduced_in(TopologyForm::BlockConf)) +
                                       " or later, and its placement is modelled from 24.05 on");
  if (topo.blocks.empty()) throw InputError(topo.file, 0, "no blocks configured");
  std::unordered_set<std::string> seen;
  m.block_levels = 0;
  m.bblock_node_cnt = 0;
  for (int size : topo.block_sizes) {
    if (m.bblock_node_cnt == 0) m.bblock_node_cnt = size;
    const int ratio = size / m.bblock_node_cnt;
    if (size % m.bblock_node_cnt || (ratio & (ratio - 1)) || ratio > (1 << 15))
      throw InputError(topo.file, topo.block_sizes_line, "Invalid BlockSizes value: " + std::to_string(size));
    m.block_levels |= 1u << std::countr_zero(static_cast<unsigned>(ratio));
  }
  if (topo.block_sizes.empty()) m.block_levels = 0x1f;  // levels 0..4
  for (const auto& b : topo.blocks) {
    if (!seen.insert(b.name).second) throw InputError(topo.file, b.line, "Block (" + b.name + ") has already been defined");
    Block blk{b.name, b.line, {}};
    for (const auto& n : b.nodes)
      if (auto it = m.index.find(n); it != m.index.end()) blk.nodes.push_back(it->second);
    std::sort(blk.nodes.begin(), blk.nodes.end());
    blk.nodes.erase(std::unique(blk.nodes.begin(), blk.nodes.end()), blk.nodes.end());
    if (m.bblock_node_cnt == 0) m.bblock_node_cnt = static_cast<int>(blk.nodes.size());
    else if (static_cast<int>(blk.nodes.size()) < m.bblock_node_cnt)
      throw InputError(topo.file, b.line, "Block configuration (" + b.name + ") children count lower than the base block size " +
                                              std::to_string(m.bblock_node_cnt));
    m.blocks.push_back(std::move(blk));
  }
  if (m.bblock_node_cnt == 0) throw InputError(topo.file, 0, "blocks contain no nodes");
  m.block = true;
}

std::string hostlist_of(const SlurmSelect::Model& m, const std::vector<char>& set) {
  if (m.simple_names) {
    std::vector<int> nodes;
    for (size_t i = 0; i < set.size(); ++i)
      if (set[i]) nodes.push_back(static_cast<int>(i));
    return simple_hostlist(m, nodes);
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < set.size(); ++i)
    if (set[i]) names.push_back(m.names[i]);
  return compress_hostlist(std::move(names));
}

// The topology plugin's choice between tree, dragonfly, block and the plain best fit.
bool eval_nodes(Eval& e) {
  if (e.usable < e.min_nodes) {
    e.reason = "fewer usable nodes than requested";
    return false;
  }
  const auto& m = e.m;
  if (m.tree && (!m.params.topo_optional || e.job.switches > 0))
    return m.params.dragonfly ? eval_dragonfly(e) : eval_tree(e);
  if (m.block) return eval_block(e);
  return eval_flat(e);
}

// 25.11+ (common_topo_choose_nodes): after a failed evaluation, what it asked for. Break: stop.
// Retry: drop the nodes it named and evaluate again. RetryHint: drop the node with the fewest
// CPUs among those it named (its partial allocation). Default: drop the node with the fewest
// CPUs. Ties go in node table order (glibc's qsort is a stable merge sort), one node per try,
// until the job fits or no more than its node count is left. A permanent error is not retried.
// Only topology/block reports its actions here; tree keeps the older loop below.
template <typename Run>
std::pair<bool, Eval> retry_by_action(std::vector<char> orig, int rem,
                                      const std::vector<int>& avail_cpus, std::pair<bool, Eval>& first, Run& run) {
  const int n = static_cast<int>(orig.size());
  const int min_nodes = first.second.min_nodes;
  if (first.second.action == Eval::Action::Permanent) return std::move(first);
  std::vector<int> sorted;  // the nodes by CPUs, once a drop needs them (never empty after)
  bool need_bit_test = false;
  int idx = -1, dropped = 0;
  // The loop's first evaluation is the first one again (first_pass only matters for GRES).
  Eval::Action action = first.second.action;
  std::vector<char> named = first.second.node_map;
  do {
    if (action == Eval::Action::Break || rem <= min_nodes) break;
    if (action == Eval::Action::Retry) {
      for (int i = 0; i < n; ++i)
        if (named[i] && orig[i]) orig[i] = 0, --rem, ++dropped;
      if (!sorted.empty()) need_bit_test = true;
    } else {
      if (sorted.empty()) {
        for (int i = 0; i < n; ++i)
          if (orig[i]) sorted.push_back(i);
        std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) { return avail_cpus[a] < avail_cpus[b]; });
        if (sorted.empty()) break;
        idx = 0;
      }
      const int res_cnt = static_cast<int>(sorted.size());
      if (action == Eval::Action::RetryHint && std::find(named.begin(), named.end(), 1) != named.end()) {
        int tmp = idx;
        while (tmp < res_cnt && !named[sorted[tmp]]) ++tmp;
        if (tmp == res_cnt) break;
        orig[sorted[tmp]] = 0;
        --rem, ++dropped;
        if (tmp == idx) ++idx;
        else need_bit_test = true;
      } else {
        while (need_bit_test && idx < res_cnt && !orig[sorted[idx]]) ++idx;
        if (idx == res_cnt) break;
        orig[sorted[idx++]] = 0;
        --rem, ++dropped;
      }
    }
    if (!sorted.empty() && idx >= static_cast<int>(sorted.size())) break;
    auto next = run(orig, rem);
    if (next.first) {
      next.second.ex.notes.push_back("placed after dropping " + std::to_string(dropped) +
                                     " nodes one at a time, as the first evaluation asked (25.11+ choose_nodes)");
      return next;
    }
    action = next.second.action;
    named = std::move(next.second.node_map);
  } while (true);
  return std::move(first);
}

// choose_nodes: when the first evaluation fails, drop the nodes with the fewest usable CPUs,
// one CPU count at a time, and try again (Slurm's guard against a knapsack dead end).
// `usable`: how many nodes node_map holds.
std::pair<bool, Eval> choose_nodes(const SlurmSelect::Model& m, const SelectJob& job, std::vector<char> node_map,
                                  int usable, const std::vector<int>& avail_cpus, bool explain) {
  // A node in the map has CPUs to offer: place() offers every CPU of a free node, and a
  // node has at least one (SlurmSelect refuses fewer).
  const int n = static_cast<int>(node_map.size());
  auto run = [&](std::vector<char> map, int count) {
    Eval e{m, job, std::move(map), avail_cpus};
    e.usable = count;
    e.explain = explain;
    e.min_nodes = e.max_nodes = e.req_nodes = job.nodes;
    e.min_cpus = job.min_cpus > 0 ? job.min_cpus : job.nodes;
    const bool ok = eval_nodes(e);
    return std::pair<bool, Eval>{ok, std::move(e)};
  };
  auto first = run(node_map, usable);  // node_map stays as it was: the first try gets a copy
  if (first.first) return first;
  if (m.block && m.version >= SlurmVersion::V25_11) return retry_by_action(std::move(node_map), usable, avail_cpus, first, run);
  std::vector<char> orig = std::move(node_map);
  int rem = usable;
  if (rem <= job.nodes) return run(orig, rem);  // the non-local-GRES pass: the same without GRES
  int most = 0;
  for (int i = 0; i < n; ++i)
    if (orig[i]) most = std::max(most, avail_cpus[i]);
  for (int count = 1; count < most; ++count) {
    bool nochange = true;
    for (int i = 0; i < n; ++i) {
      if (!orig[i]) continue;
      if (avail_cpus[i] > 0 && avail_cpus[i] <= count) {
        nochange = false;
        orig[i] = 0;
        if (--rem <= job.nodes) break;
      }
    }
    if (nochange && count != 1) continue;
    auto retry = run(orig, rem);
    if (retry.first) {
      retry.second.ex.notes.push_back("placed after dropping nodes with at most " + std::to_string(count) +
                                      " usable CPUs (choose_nodes)");
      return retry;
    }
    if (rem <= job.nodes) break;
  }
  return first;
}

}  // namespace

std::vector<WeightGroup> select_detail::weight_groups(const SlurmSelect::Model& m, const std::vector<char>& node_map) {
  // by_weight holds the node table ordered by (weight, index): one pass keeps the available.
  std::vector<WeightGroup> groups;
  for (int i : m.by_weight) {
    if (!node_map[i]) continue;
    if (groups.empty() || groups.back().weight != m.weight[i]) groups.push_back({m.weight[i], {}});
    groups.back().nodes.push_back(i);
  }
  return groups;
}

SlurmSelect::SlurmSelect(SelectSetup setup) : model_(std::make_unique<Model>()) {
  Model& m = *model_;
  m.params = setup.params;
  m.version = setup.version;
  m.max_switch_wait = setup.max_switch_wait;
  if (setup.tree && setup.block) throw InputError("--topology", 0, "give topology/tree or topology/block, not both");
  // slurmctld sorts its node table by name, digits compared as numbers (strnatcmp), or by the
  // rank the topology plugin gives (a stable merge sort: equal ranks keep slurm.conf's order).
  if (setup.order == NodeOrder::ByName) {
    std::stable_sort(setup.nodes.begin(), setup.nodes.end(),
                     [](const SlurmNode& a, const SlurmNode& b) { return natural_less(a.name, b.name); });
  } else if (setup.order == NodeOrder::BlockRank && setup.block) {
    std::unordered_map<std::string, int> rank;  // a node in several blocks: the last one's
    for (size_t b = 0; b < setup.block->blocks.size(); ++b)
      for (const auto& n : setup.block->blocks[b].nodes) rank[n] = static_cast<int>(b) + 1;
    auto rank_of = [&](const SlurmNode& n) {
      auto it = rank.find(n.name);
      return it == rank.end() ? 0 : it->second;
    };
    std::stable_sort(setup.nodes.begin(), setup.nodes.end(),
                     [&](const SlurmNode& a, const SlurmNode& b) { return rank_of(a) < rank_of(b); });
    m.setup_notes.push_back("TopologyParam=BlockAsNodeRank: the node table is in block order (nodes of no block "
                            "first, slurm.conf's order within a block), and so is every tie");
  } else if (setup.block) {
    m.setup_notes.push_back("topology/block of 23.11-24.11: the node table keeps slurm.conf's order (the plugin ranks "
                            "every node 0), and so does every tie");
  }
  for (auto& node : setup.nodes) {
    if (m.index.count(node.name)) continue;
    if (node.cpus < 1) throw InputError("--cpus", 0, "node " + node.name + " needs at least one CPU");
    m.index.emplace(node.name, static_cast<int>(m.names.size()));
    m.names.push_back(node.name);
    m.weight.push_back(node.weight);
    m.cpus.push_back(node.cpus);
  }
  if (m.names.empty()) throw InputError("--nodes", 0, "no nodes given");
  m.rank_weight = m.weight;
  std::sort(m.rank_weight.begin(), m.rank_weight.end());
  m.rank_weight.erase(std::unique(m.rank_weight.begin(), m.rank_weight.end()), m.rank_weight.end());
  m.weight_rank.resize(m.names.size());
  for (size_t i = 0; i < m.names.size(); ++i)
    m.weight_rank[i] = static_cast<int>(std::lower_bound(m.rank_weight.begin(), m.rank_weight.end(), m.weight[i]) -
                                        m.rank_weight.begin());
  find_simple_names(m);
  m.by_weight.resize(m.names.size());
  for (size_t i = 0; i < m.names.size(); ++i) m.by_weight[i] = static_cast<int>(i);
  std::stable_sort(m.by_weight.begin(), m.by_weight.end(), [&](int a, int b) { return m.weight[a] < m.weight[b]; });
  if (setup.tree) build_switches(m, *setup.tree);
  if (m.plain_tree) {  // eval_tree's counter slot per node: (leaf, weight rank), or the spare one
    const int W = static_cast<int>(m.rank_weight.size()), S = static_cast<int>(m.switches.size());
    m.leaf_slot.resize(m.names.size());
    for (size_t i = 0; i < m.names.size(); ++i)
      m.leaf_slot[i] = (m.node_leaf[i] < 0 ? S : m.node_leaf[i]) * W + m.weight_rank[i];
    for (int i = 0; i < static_cast<int>(m.names.size()); ++i) {
      const int leaf = m.node_leaf[i] < 0 ? S : m.node_leaf[i];
      if (i == 0 || leaf != m.leaf_runs.back().leaf) m.leaf_runs.push_back({i, i + 1, leaf});
      else m.leaf_runs.back().end = i + 1;
    }
    if (W <= 4) m.rank8.assign(m.weight_rank.begin(), m.weight_rank.end());
  }
  if (setup.block) build_blocks(m, *setup.block);
}

SlurmSelect::~SlurmSelect() = default;
SlurmSelect::SlurmSelect(SlurmSelect&&) noexcept = default;
SlurmSelect& SlurmSelect::operator=(SlurmSelect&&) noexcept = default;

const std::vector<std::string>& SlurmSelect::node_names() const { return model_->names; }

int SlurmSelect::node_index(const std::string& name) const {
  auto it = model_->index.find(name);
  return it == model_->index.end() ? -1 : it->second;
}

SelectResult SlurmSelect::place(const SelectJob& job, const std::vector<std::string>& busy,
                                const std::vector<std::string>& whole_topo) const {
  auto flags_of = [&](const std::vector<std::string>& names, const char* option) {
    std::vector<char> flags(model_->names.size(), 0);
    for (const auto& name : names) {
      int i = node_index(name);
      if (i < 0) throw InputError(option, 0, "node " + name + " is not in --nodes");
      flags[i] = 1;
    }
    return flags;
  };
  std::vector<char> flags = flags_of(busy, "--busy"), topo = flags_of(whole_topo, "--busy-topo");
  for (size_t i = 0; i < flags.size(); ++i) flags[i] |= topo[i];  // a job's nodes are busy either way
  return place(job, flags, SelectDetail::Explained, whole_topo.empty() ? std::vector<char>{} : topo);
}

namespace {

// cons_tres _block_by_topology (24.05+, topology/block only): the base blocks holding a node of
// a job that keeps its blocks whole, or of any job when this one does, are closed to this job.
// Returns the blocks closed.
std::vector<int> close_whole_topo_blocks(const SlurmSelect::Model& m, const SelectJob& job,
                                         const std::vector<char>& busy, const std::vector<char>& whole_topo,
                                         std::vector<char>& node_map, std::vector<int>& avail_cpus, int& available) {
  std::vector<int> closed;
  if (!m.block || m.version < SlurmVersion::V24_05) return closed;
  const size_t n = node_map.size();
  auto holds = [&](size_t i) {
    return (i < whole_topo.size() && whole_topo[i]) || (job.exclusive_topo && i < busy.size() && busy[i]);
  };
  for (size_t b = 0; b < m.blocks.size(); ++b) {
    bool held = false;
    for (int i : m.blocks[b].nodes) held = held || holds(static_cast<size_t>(i));
    if (!held) continue;
    closed.push_back(static_cast<int>(b));
    for (int i : m.blocks[b].nodes) {
      if (static_cast<size_t>(i) >= n || !node_map[i]) continue;
      node_map[i] = 0;
      avail_cpus[i] = 0;
      --available;
    }
  }
  return closed;
}

}  // namespace

SelectResult SlurmSelect::place(const SelectJob& job, const std::vector<char>& busy, SelectDetail detail,
                                const std::vector<char>& whole_topo) const {
  const bool explain = detail == SelectDetail::Explained;
  const Model& m = *model_;
  const int n = static_cast<int>(m.names.size());
  SelectResult r;
  if (explain) r.explanation.algorithm = "select/cons_tres (Slurm " + to_string(m.version) + ")";
  if (job.nodes < 1) throw InputError("-N", 0, "a job needs at least one node");
  if (job.nodes > n) {
    r.reason = std::to_string(job.nodes) + " nodes requested but the partition has " + std::to_string(n) +
               " (Slurm keeps it pending: PartitionConfig)";
    return r;
  }
  // node_scheduler: an exclusive job sees idle nodes only; a shared one every node not held
  // exclusively. Busy nodes here are whole-node allocations, so both exclude them.
  std::vector<char> node_map(n, 0);
  std::vector<int> avail_cpus(n, 0);
  int available = 0;
  // Branch-free: busy states are random, a branch per node would mispredict half the time.
  const int known = std::min(n, static_cast<int>(busy.size()));
  const char* busy_flag = busy.data();
  const int* cpus = m.cpus.data();
  char* map = node_map.data();
  int* avail = avail_cpus.data();
  for (int i = 0; i < n; ++i) {
    const int free_node = i >= known ? 1 : static_cast<int>(busy_flag[i] == 0);
    map[i] = static_cast<char>(free_node);
    avail[i] = cpus[i] * free_node;
    available += free_node;
  }
  std::vector<std::string> topo_notes;
  if (job.exclusive_topo || !whole_topo.empty()) {
    const std::vector<int> closed = close_whole_topo_blocks(m, job, busy, whole_topo, node_map, avail_cpus, available);
    if (explain && !closed.empty()) {
      std::string names;
      for (int b : closed) names += (names.empty() ? "" : ", ") + m.blocks[b].name;
      topo_notes.push_back("Exclusive=TOPO: base blocks " + names + " hold " +
                           (job.exclusive_topo ? "other jobs" : "jobs that keep their blocks whole") +
                           " and are closed to this job");
    } else if (explain && !m.block) {
      topo_notes.push_back("Exclusive=TOPO is ignored: only topology/block supports it");
    }
  }
  if (available < job.nodes) {
    r.reason = "only " + std::to_string(available) + " of " + std::to_string(n) + " nodes are free" +
               (topo_notes.empty() ? "" : " outside the base blocks Exclusive=TOPO closes") + ", " +
               std::to_string(job.nodes) + " requested (Slurm keeps it pending: Resources)";
    r.explanation.available_nodes = available;
    for (auto& note : topo_notes) r.explanation.notes.push_back(std::move(note));
    return r;
  }
  // 26.05 (cons_tres _get_one_res, "Add dedicated allocation logic for one-node jobs"): a job
  // of at most one node skips the topology plugin's evaluation (tree, block and flat all allow
  // it): the available nodes sorted by scheduling weight, node table order on ties, the first
  // that has the CPUs. Nodes under no switch are candidates too; --switches is met by any one.
  if (m.version >= SlurmVersion::V26_05 && job.nodes == 1) {
    const int need = std::max(job.min_cpus, 1);
    int pick = -1;
    for (int i = 0; i < n; ++i)
      if (node_map[i] && avail_cpus[i] >= need && (pick == -1 || m.weight[i] < m.weight[pick])) pick = i;
    if (explain) r.explanation.algorithm = "select/cons_tres one-node path (Slurm " + to_string(m.version) + ")";
    r.explanation.available_nodes = available;
    for (auto& note : topo_notes) r.explanation.notes.push_back(std::move(note));
    if (pick == -1) {
      r.reason = "no free node has " + std::to_string(need) + " CPUs (Slurm keeps it pending: Resources)";
      return r;
    }
    if (explain) {
      r.explanation.notes.push_back("one-node job: the lightest free node, first in node order; the topology is not consulted");
      r.nodes.push_back(m.names[pick]);
      r.hostlist = m.names[pick];
    }
    r.node_indices.push_back(pick);
    for (const auto& s : m.switches) r.leaf_switches += s.level == 0 && std::binary_search(s.nodes.begin(), s.nodes.end(), pick);
    r.started = true;
    return r;
  }
  auto [ok, e] = choose_nodes(m, job, std::move(node_map), available, avail_cpus, explain);
  if (explain) {
    r.explanation = std::move(e.ex);
    if (r.explanation.algorithm.empty()) r.explanation.algorithm = "select/cons_tres";
    r.explanation.algorithm += " (Slurm " + to_string(m.version) + ")";
    for (const auto& note : m.setup_notes) r.explanation.notes.push_back(note);
    for (auto& note : topo_notes) r.explanation.notes.push_back(std::move(note));
  }
  r.explanation.available_nodes = available;
  if (!ok) {
    r.reason = e.reason.empty() ? "no placement satisfies the request" : e.reason;
    r.request_unfit = e.action == Eval::Action::Permanent;
    if (!r.request_unfit) r.reason += " (Slurm keeps it pending: Resources)";
    return r;
  }
  // The allocation's node indices: as the evaluation kept them, else from the map,
  // branch-free (an index is written, and kept if chosen).
  std::vector<int> chosen = std::move(e.allocated);
  if (chosen.empty()) {
    chosen.resize(n + 1);
    int found = 0;
    for (int i = 0; i < n; ++i) {
      chosen[found] = i;
      found += e.node_map[i] != 0;
    }
    chosen.resize(found);
  }
  const int count = static_cast<int>(chosen.size());
  if (explain) {
    r.nodes.reserve(count);
    for (int i : chosen) r.nodes.push_back(m.names[i]);
    r.hostlist = m.simple_names ? simple_hostlist(m, chosen) : hostlist_of(m, e.node_map);
  }
  r.node_indices = std::move(chosen);
  r.leaf_switches = e.leaf_count;
  if (!e.best_switch) {
    r.waiting_for_switches = true;
    const int wait = job.switch_wait < 0 ? m.max_switch_wait : std::min(job.switch_wait, m.max_switch_wait);
    const std::string takes =
        explain ? r.hostlist : m.simple_names ? simple_hostlist(m, r.node_indices) : hostlist_of(m, e.node_map);
    r.reason = "the best placement spans " + std::to_string(e.leaf_count) + " leaf switches, more than --switches=" +
               std::to_string(job.switches) + ": the job waits up to " + std::to_string(wait) +
               " s for a better one, then takes " + takes;
    return r;
  }
  r.started = true;
  return r;
}


}  // namespace slurmtopo
