// The switch tree of a topology.conf over slurmctld's node table: which leaf each node hangs
// from and which group (the leaf's parent: a pod, a scalable unit) — what "a job spans 3
// leaves in 2 groups" counts, and what the best placement (simulate/whatif/best_placement.h) walks.
#pragma once

#include <string>
#include <vector>

#include "slurm/topology_conf.h"

namespace slurmtopo {

struct LeafTree {
  std::vector<std::string> names;            // switches, file order
  std::vector<int> parent;                   // Slurm's rule: the last line listing it; -1 = root
  std::vector<int> level;                    // leaf = 0, else one above its highest child
  std::vector<std::vector<int>> children;    // switches (file order)
  std::vector<std::vector<int>> leaf_nodes;  // a leaf's nodes, ascending node index
  std::vector<int> node_leaf;                // per node: its leaf, -1 under no switch
  std::vector<int> node_group;               // per node: its leaf's parent (the leaf if a root)

  int leaves_spanned(const std::vector<int>& nodes) const;  // nodes under no leaf count 0
  int groups_spanned(const std::vector<int>& nodes) const;
};

// `node_names` in node-table order (SlurmSelect::node_names()). Expects a topology that
// SlurmSelect accepted (no cycles, known children).
LeafTree leaf_tree(const ParsedTopology& topology, const std::vector<std::string>& node_names);

}  // namespace slurmtopo
