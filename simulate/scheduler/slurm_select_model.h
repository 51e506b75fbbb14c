// Internal to the select emulation: slurmctld's tables as SlurmSelect builds them, and one
// evaluation (what select/cons_tres calls _eval_nodes) shared by the tree, block and flat
// algorithms. Node sets are byte vectors indexed like the node table, as Slurm's bitmaps are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "simulate/scheduler/slurm_select.h"

namespace slurmtopo {

namespace select_detail {

constexpr uint32_t kInfinite = kNoDistance;
constexpr int kNoParent = -1;                // SWITCH_NO_PARENT

struct Switch {
  std::string name;
  int line = 0;
  int level = 0;  // Slurm's numbering: leaf = 0
  int parent = kNoParent;  // the last line listing it as a child (Slurm keeps the last)
  std::vector<int> children;
  std::vector<int> nodes;  // every node below it, ascending node index
};

struct Block {
  std::string name;
  int line = 0;
  std::vector<int> nodes;  // ascending node index
};

struct WeightGroup {
  uint64_t weight = 0;
  std::vector<int> nodes;  // ascending node index
};

}  // namespace select_detail

struct SlurmSelect::Model {
  TopologyParams params;
  SlurmVersion version = SlurmVersion::V22_05;
  int max_switch_wait = 300;

  std::vector<std::string> names;  // node table, slurmctld order
  std::vector<uint64_t> weight;
  std::vector<int> cpus;
  std::unordered_map<std::string, int> index;

  bool tree = false;  // topology/tree with at least one switch
  std::vector<select_detail::Switch> switches;  // file order
  std::vector<std::vector<uint32_t>> dist;      // hops between switches, kInfinite if apart
  // The switches above each node (every level), flattened: node n's are
  // node_switch[node_switch_at[n] .. node_switch_at[n + 1]). Counting per node is cheaper than
  // scanning each switch's node list.
  std::vector<int> node_switch_at, node_switch;

  // Node weights as ranks (0 = lightest distinct Weight=), for counting per leaf and tier.
  std::vector<int> weight_rank;
  std::vector<uint64_t> rank_weight;  // rank -> Weight=
  std::vector<int> by_weight;         // node indices by (weight, index): weight_groups' order
  // A plain tree: every node is under at most one leaf, and the switches above it are exactly
  // that leaf and its parent chain. Then counts per leaf, summed up the parents, are what
  // Slurm's per-switch bitmaps count, and eval_tree need not walk every node for each of them.
  bool plain_tree = false;
  std::vector<int> node_leaf;  // the leaf above each node, -1 for none (plain trees)
  std::vector<int> leaf_slot;  // (leaf, or the switch count for none) * weight ranks + rank
  struct LeafRun {
    int begin, end, leaf;  // nodes [begin, end) under one leaf (the switch count: none)
  };
  std::vector<LeafRun> leaf_runs;
  std::vector<uint8_t> rank8;  // weight_rank as bytes, when there are at most 4 ranks

  // Names one prefix plus a number, all written at one width or all without leading zeros,
  // in increasing number order: then a hostlist of any subset is one bracket of number runs,
  // written without sorting strings (hostlist_of; checked against compress_hostlist).
  bool simple_names = false;
  std::string name_prefix;
  int name_width = 0;
  std::vector<uint64_t> name_number;

  bool block = false;
  std::vector<select_detail::Block> blocks;  // base blocks, file order
  int bblock_node_cnt = 0;                   // base block size
  uint32_t block_levels = 0;                 // bit k: blocks of bblock_node_cnt << k exist

  std::vector<std::string> setup_notes;  // what slurmctld would log as a warning
};

namespace select_detail {

// One call of Slurm's _eval_nodes for one job: node_map holds the usable nodes on entry and
// the allocation on a successful return.
struct Eval {
  // cpus is read, never written, and outlives the evaluation (place() owns it).
  Eval(const SlurmSelect::Model& model, const SelectJob& j, std::vector<char> map, const std::vector<int>& cpus)
      : m(model), job(j), node_map(std::move(map)), avail_cpus(cpus) {}

  const SlurmSelect::Model& m;
  const SelectJob& job;
  std::vector<char> node_map;
  const std::vector<int>& avail_cpus;  // CPUs the job may use per node; 0 = not usable
  int usable = 0;                      // nodes in node_map on entry
  int min_nodes = 0, max_nodes = 0, req_nodes = 0;
  int min_cpus = 0;

  // What a failed evaluation tells the 25.11+ retry loop (common_topo_choose_nodes, the
  // eval_action of 26.05, the ESLURM_*_EVAL codes of 25.11); on such a failure node_map holds
  // the nodes the action reads (RetryHint: the partial allocation; Retry: nodes to drop).
  enum class Action { Default, Break, Retry, RetryHint, Permanent };
  Action action = Action::Default;

  bool explain = true;      // false: leave `ex` out (SelectDetail::NodesOnly)
  bool best_switch = true;  // false: more leaves than --switches, the job waits
  int leaf_count = 0;
  // The allocation as ascending node indices, when the evaluation kept them (tree); else
  // empty, and node_map is read.
  std::vector<int> allocated;
  SelectExplanation ex;
  std::string reason;  // why it failed
};

bool eval_tree(Eval& e);       // slurm_select_tree.cc

// slurm_select_names.cc: Model::simple_names, and the hostlist of table-ordered indices.
void find_simple_names(SlurmSelect::Model& m);
std::string simple_hostlist(const SlurmSelect::Model& m, const std::vector<int>& nodes);
bool eval_dragonfly(Eval& e);  // slurm_select_tree.cc
bool eval_flat(Eval& e);       // slurm_select_flat.cc
bool eval_block(Eval& e);      // slurm_select_block.cc

// The available nodes grouped by scheduling weight, lightest first.
std::vector<WeightGroup> weight_groups(const SlurmSelect::Model& m, const std::vector<char>& node_map);

// _enough_nodes: is `avail` enough for the `rem` nodes still wanted.
inline bool enough_nodes(int avail, int rem, int min_nodes, int req_nodes) {
  const int needed = req_nodes > min_nodes ? rem + min_nodes - req_nodes : rem;
  return avail >= needed;
}

// _cpus_to_use: the CPUs a node adds to the allocation. A whole-node job takes them all; a
// shared one only what it still needs, keeping one per remaining node for the others.
inline int cpus_to_use(const Eval& e, int avail, int64_t rem_max_cpus, int rem_nodes) {
  if (e.job.exclusive) return avail;
  const int64_t left = rem_max_cpus - std::max(rem_nodes - 1, 0);
  if (avail > left) return static_cast<int>(std::max<int64_t>(left, 1));
  return avail;
}

}  // namespace select_detail
}  // namespace slurmtopo
