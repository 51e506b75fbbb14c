#include "simulate/scheduler/leaf_tree.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace slurmtopo {

namespace {

int distinct(std::vector<int> v) {
  std::erase(v, -1);
  std::sort(v.begin(), v.end());
  return static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
}

}  // namespace

int LeafTree::leaves_spanned(const std::vector<int>& nodes) const {
  std::vector<int> v;
  for (int n : nodes) v.push_back(node_leaf[n]);
  return distinct(std::move(v));
}

int LeafTree::groups_spanned(const std::vector<int>& nodes) const {
  std::vector<int> v;
  for (int n : nodes) v.push_back(node_group[n]);
  return distinct(std::move(v));
}

LeafTree leaf_tree(const ParsedTopology& topology, const std::vector<std::string>& node_names) {
  LeafTree t;
  const size_t s = topology.switches.size();
  std::unordered_map<std::string, int> sw, node;
  for (size_t i = 0; i < s; ++i) {
    t.names.push_back(topology.switches[i].name);
    sw.emplace(topology.switches[i].name, static_cast<int>(i));
  }
  for (size_t i = 0; i < node_names.size(); ++i) node.emplace(node_names[i], static_cast<int>(i));
  t.parent.assign(s, -1);
  t.children.assign(s, {});
  t.leaf_nodes.assign(s, {});
  t.node_leaf.assign(node_names.size(), -1);
  t.node_group.assign(node_names.size(), -1);
  for (size_t i = 0; i < s; ++i) {
    for (const auto& c : topology.switches[i].switches)
      if (auto it = sw.find(c); it != sw.end()) {
        t.parent[it->second] = static_cast<int>(i);
        t.children[i].push_back(it->second);
      }
    for (const auto& n : topology.switches[i].nodes)
      if (auto it = node.find(n); it != node.end()) {
        t.leaf_nodes[i].push_back(it->second);
        t.node_leaf[it->second] = static_cast<int>(i);
      }
  }
  // A child listed under several parents belongs to the last (Slurm's rule).
  for (size_t i = 0; i < s; ++i)
    std::erase_if(t.children[i], [&](int c) { return t.parent[c] != static_cast<int>(i); });
  for (auto& nodes : t.leaf_nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  }
  t.level.assign(s, -1);
  std::function<int(int, int)> level_of = [&](int i, int depth) {
    if (t.level[i] >= 0 || depth > static_cast<int>(s)) return std::max(t.level[i], 0);
    int l = 0;
    for (int c : t.children[i]) l = std::max(l, level_of(c, depth + 1) + 1);
    return t.level[i] = l;
  };
  for (size_t i = 0; i < s; ++i) level_of(static_cast<int>(i), 0);
  for (size_t n = 0; n < node_names.size(); ++n) {
    const int leaf = t.node_leaf[n];
    if (leaf >= 0) t.node_group[n] = t.parent[leaf] >= 0 ? t.parent[leaf] : leaf;
  }
  return t;
}

}  // namespace slurmtopo
