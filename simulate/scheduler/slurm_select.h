// Which nodes Slurm's select/cons_tres gives a job: an emulation of slurmctld's node selection
// (node table order, weight tiers, topology/tree including dragonfly and TopoOptional,
// topology/block, and the consecutive best fit used without topology), so that a placement can
// be predicted offline and checked against a real slurmctld. docs/placement.md describes the
// algorithm as implemented and where Slurm versions differ.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "slurm/block_topology.h"
#include "slurm/release.h"
#include "slurm/topology_conf.h"

namespace slurmtopo {

// TopologyParam flags that change placement.
struct TopologyParams {
  bool dragonfly = false;
  bool topo_optional = false;
  bool block_as_node_rank = false;  // BlockAsNodeRank (25.11+): the node table in block order
};
TopologyParams parse_topology_params(const std::string& text);  // "Dragonfly,TopoOptional"; throws

// The order of slurmctld's node table (read_config.c _sort_node_record_table_ptr), which every
// "first node" and every tie in the selection follows. By name (strnatcmp), unless the topology
// plugin ranks the nodes: topology/block of 23.11 to 24.11 ranks every node 0, so the table
// keeps slurm.conf's order; from 25.11 TopologyParam=BlockAsNodeRank ranks nodes by their
// block (nodes of no block first), slurm.conf's order within one.
enum class NodeOrder { ByName, AsConfigured, BlockRank };
NodeOrder node_table_order(SlurmRelease release, bool block, const TopologyParams& params);

// A NodeName entry: its Weight= and the CPUs a job can use on it.
struct SlurmNode {
  std::string name;
  uint64_t weight = 1;
  int cpus = 1;
};

struct SelectSetup {
  std::vector<SlurmNode> nodes;        // slurm.conf's nodes in its order; a repeated name counts once
  NodeOrder order = NodeOrder::ByName;  // node_table_order()
  std::optional<ParsedTopology> tree;  // topology/tree; neither tree nor block: no topology
  std::optional<BlockTopology> block;  // topology/block
  TopologyParams params;
  SlurmVersion version = SlurmVersion::V22_05;
  int max_switch_wait = 300;  // SchedulerParameters=max_switch_wait, seconds
};

// What `salloc -N nodes [--exclusive] [--switches=N[@wait]]` asks for.
struct SelectJob {
  int nodes = 1;
  bool exclusive = false;
  int switches = 0;      // --switches count; 0 = not asked
  int switch_wait = -1;  // --switches ...@wait in seconds; -1 = max_switch_wait
  int min_cpus = 0;      // 0 = one CPU per node, as salloc -N without -n
  // --segment: topology/block places the job in pieces of this many nodes (24.11+); 0 = one
  // piece. Tree and flat ignore it, as slurmctld does.
  int segment = 0;
  bool consolidate_segments = false;  // --consolidate-segments (25.11+): every segment in one block
  bool spread_segments = false;       // --spread-segments (25.11+): no two segments share a base block
  // --exclusive=topo (24.05+): with topology/block the job shares no base block with another
  // job (cons_tres _block_by_topology); tree and flat do not support it and ignore it.
  bool exclusive_topo = false;
};

// Why the nodes are the ones they are, step by step (what --explain prints).
struct WeightTier {
  uint64_t weight = 0;
  int available = 0;  // available nodes of this weight within the top switch/block
  int used = 0;       // how many of them entered the candidate set
  bool forced = false;  // a fully consumed lower tier: every node is in the allocation
};
// Slurm's INFINITE hop count: switches not connected, or no distance (not a tree).
inline constexpr uint32_t kNoDistance = 0xffffffffu;

struct LeafStep {
  std::string name;       // leaf switch, base block or consecutive node range
  uint32_t distance = 0;  // sum of hops to the switches already in use (tree only), or kNoDistance
  int available = 0;      // candidate nodes on it when it was chosen
  int taken = 0;
  std::string why;
};
struct SelectExplanation {
  std::string release;  // the caller's: "Slurm 24.11 (--slurm-version 24.11)", the rules it chose
  std::string algorithm;
  int available_nodes = 0;
  std::string top;  // top switch or block
  int top_level = -1;
  std::vector<WeightTier> tiers;
  std::vector<LeafStep> steps;
  std::vector<std::string> notes;
};

// How much place() says about its choice: everything (what --explain prints and the CLI
// writes), or what a sweep reads: started, waiting_for_switches, reason, leaf_switches and
// node_indices (no node names, hostlist or explanation: building them costs a third of a
// placement on 4,096 nodes).
enum class SelectDetail { Explained, NodesOnly };

struct SelectResult {
  bool started = false;
  bool waiting_for_switches = false;  // placed, but more leaves than --switches allows: waits
  std::vector<std::string> nodes;     // the allocation (or the one it waits for), node table order
  std::vector<int> node_indices;      // the same as indices into node_names()
  std::string hostlist;               // the same, as squeue prints it
  std::string reason;                 // why it cannot start now
  int leaf_switches = 0;              // leaf switches (or base blocks) the allocation spans
  // The request itself does not fit the topology, whatever is free (topology/block: a
  // --segment it cannot take); slurmctld refuses such a job when it is submitted.
  bool request_unfit = false;
  SelectExplanation explanation;
};

class SlurmSelect {
 public:
  // Builds slurmctld's tables once: node table, switch levels, parents and distances. Throws
  // InputError for what would stop slurmctld (unknown child switch, cycle, duplicate name, ...).
  explicit SlurmSelect(SelectSetup setup);
  ~SlurmSelect();
  SlurmSelect(SlurmSelect&&) noexcept;
  SlurmSelect& operator=(SlurmSelect&&) noexcept;

  // Busy nodes are allocated to other jobs (whole nodes). Unknown names throw InputError.
  // `whole_topo`: the busy nodes whose jobs hold their base blocks whole (--exclusive=topo, or
  // a partition with Exclusive=TOPO): with topology/block no other job gets a node of those
  // blocks.
  SelectResult place(const SelectJob& job, const std::vector<std::string>& busy,
                     const std::vector<std::string>& whole_topo = {}) const;
  // The same with busy flags indexed like node_names(): the fast path for sweeps.
  SelectResult place(const SelectJob& job, const std::vector<char>& busy,
                     SelectDetail detail = SelectDetail::Explained, const std::vector<char>& whole_topo = {}) const;

  const std::vector<std::string>& node_names() const;  // slurmctld's node table order
  int node_index(const std::string& name) const;       // -1 if unknown

  struct Model;

 private:
  std::unique_ptr<Model> model_;
};

// The explanation as lines of text.


}  // namespace slurmtopo
