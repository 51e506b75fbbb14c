#include "emit/topology_diff.h"

#include <map>
#include <set>
#include <string_view>

#include "base/input_error.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
// Each node with its leaf, by node name; a node listed twice keeps its first leaf. Sorted
// views (node_listings): a map of strings cost a third of a re-run that found the file changed.
using NodeLeaf = std::pair<std::string_view, std::string_view>;
std::vector<NodeLeaf> leaf_of(const ParsedTopology& p) {
  std::vector<NodeLeaf> out;
  for (const NodeListing& l : node_listings(p))
    if (out.empty() || out.back().first != l.node) out.emplace_back(l.node, l.leaf->name);
  return out;
}

std::map<std::string, const TopologyLine*> by_name(const ParsedTopology& p) {
  std::map<std::string, const TopologyLine*> out;
  for (const auto& s : p.switches) out.emplace(s.name, &s);
  return out;
}
}  // namespace

TopologyDiff diff_topology(const ParsedTopology& old_file, const ParsedTopology& new_file) {
  TopologyDiff d;
  auto old_leaf = leaf_of(old_file), new_leaf = leaf_of(new_file);
  auto old_sw = by_name(old_file), new_sw = by_name(new_file);
  d.old_nodes = old_leaf.size();

  for (const auto& [name, line] : new_sw)
    if (!old_sw.count(name))
      d.lines.push_back("+ switch " + name + (line->has_nodes ? " (" + std::to_string(line->nodes.size()) + " nodes)"
                                                              : " (" + std::to_string(line->switches.size()) + " switches)"));
  for (const auto& [name, line] : old_sw)
    if (!new_sw.count(name)) d.lines.push_back("- switch " + name);
  for (const auto& [name, line] : new_sw) {
    auto it = old_sw.find(name);
    if (it == old_sw.end() || !line->has_switches) continue;
    std::set<std::string> a(it->second->switches.begin(), it->second->switches.end());
    std::set<std::string> b(line->switches.begin(), line->switches.end());
    if (a != b) d.lines.push_back("~ switch " + name + " children: " + it->second->switches_expr + " -> " + line->switches_expr);
  }

  // Node moves, grouped by (from, to) so a re-cabled leaf is one line, not 32. Both lists are
  // by name: one walk finds the nodes added, dropped and moved, each in name order.
  std::map<std::pair<std::string_view, std::string_view>, std::vector<std::string>> moves;
  std::vector<std::string> added, dropped;
  for (size_t i = 0, j = 0; i < old_leaf.size() || j < new_leaf.size();) {
    if (j == new_leaf.size() || (i < old_leaf.size() && old_leaf[i].first < new_leaf[j].first)) {
      dropped.emplace_back(old_leaf[i++].first);
    } else if (i == old_leaf.size() || new_leaf[j].first < old_leaf[i].first) {
      added.emplace_back(new_leaf[j++].first);
    } else {
      if (old_leaf[i].second != new_leaf[j].second)
        moves[{old_leaf[i].second, new_leaf[j].second}].emplace_back(new_leaf[j].first);
      ++i, ++j;
    }
  }
  for (auto& [fromto, nodes] : moves)
    d.lines.push_back("~ " + compress_hostlist(nodes) + ": " + std::string(fromto.first) + " -> " +
                      std::string(fromto.second));
  if (!added.empty()) d.lines.push_back("+ nodes " + compress_hostlist(added));
  if (!dropped.empty()) d.lines.push_back("- nodes " + compress_hostlist(dropped));
  d.dropped = dropped;
  return d;
}

ParsedTopology comparable_topology(const SlurmTopologyFile& file, const std::string& path) {
  if (file.tree) {
    if (!file.tree->errors.empty()) throw InputError(path, file.tree->errors.front().line, file.tree->errors.front().message);
    return *file.tree;
  }
  ParsedTopology out;
  out.file = path;
  if (file.block)
    for (const auto& b : file.block->blocks) {
      TopologyLine line;
      line.line = b.line;
      line.name = b.name;
      line.has_nodes = true;
      line.nodes = b.nodes;
      out.switches.push_back(std::move(line));
    }
  return out;
}

ParsedTopology comparable_topology(std::string_view text, const std::string& path) {
  return comparable_topology(parse_topology_file(text, path), path);
}

}  // namespace slurmtopo
