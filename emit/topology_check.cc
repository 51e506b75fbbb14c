#include "emit/topology_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
constexpr size_t kMaxSwitches = 65535;     // slurmctld's switch_record_cnt limit
constexpr size_t kMaxSwitchName = 64;      // fatal from 24.11
constexpr size_t kMaxTrailingDigits = 19;  // hostlist's numeric suffix overflows beyond
constexpr int kMaxLevelPasses = 20;        // slurmctld gives up resolving levels after this

size_t trailing_digits(const std::string& s) {
  size_t n = 0;
  while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[s.size() - 1 - n]))) ++n;
  return n;
}

std::string summary(const std::vector<std::string>& names) {
  std::vector<std::string> copy = names;
  std::string list = compress_hostlist(copy);
  return list.size() > 200 ? list.substr(0, 200) + "…" : list;
}
}  // namespace

TopologyCheck check_topology(const ParsedTopology& p, const TopologyCheckOptions& options) {
  TopologyCheck out;
  out.errors = p.errors;
  if (p.switches.empty()) {
    out.errors.push_back({0, "no switches: slurmctld would run without topology (22.05) or refuse to start (25.11)"});
    return out;
  }
  if (p.switches.size() >= kMaxSwitches)
    out.errors.push_back({0, "too many switches for slurmctld (" + std::to_string(p.switches.size()) + ")"});

  std::map<std::string, int> index;
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i) {
    const auto& s = p.switches[i];
    if (!index.emplace(s.name, i).second)
      out.errors.push_back({s.line, "Switch (" + s.name + ") has already been defined"});
    if (s.name.size() > kMaxSwitchName)
      out.errors.push_back({s.line, "SwitchName longer than 64 characters: " + s.name});
    if (trailing_digits(s.name) > kMaxTrailingDigits)
      out.errors.push_back({s.line, "SwitchName ends in a number of more than 19 digits: " + s.name});
    if (s.has_nodes && s.has_switches)
      out.errors.push_back({s.line, "switch " + s.name + " has both Nodes= and Switches="});
    if (!s.has_nodes && !s.has_switches)
      out.errors.push_back({s.line, "switch " + s.name + " has neither child switches nor nodes"});
    if (s.has_nodes && s.nodes.empty())
      out.errors.push_back({s.line, "switch " + s.name + " has an empty Nodes= list"});
  }

  // Children, parents and levels, resolved the way slurmctld does it.
  std::vector<std::vector<int>> children(p.switches.size());
  std::vector<int> parents(p.switches.size(), 0);
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i)
    for (const auto& child : p.switches[i].switches) {
      auto it = index.find(child);
      if (it == index.end() || it->second == i) {
        out.errors.push_back({p.switches[i].line, "Switch configuration " + p.switches[i].name +
                                                      " has invalid child (" + child + ")"});
        continue;
      }
      children[i].push_back(it->second);
      ++parents[it->second];
    }
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i)
    if (parents[i] > 1)
      out.warnings.push_back({p.switches[i].line, "switch " + p.switches[i].name + " has " +
                                                      std::to_string(parents[i]) +
                                                      " parents; slurmctld keeps only the last"});
  std::vector<int> level(p.switches.size(), -1);
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i)
    if (p.switches[i].has_nodes) level[i] = 0;
  for (int pass = 0; pass < kMaxLevelPasses; ++pass) {
    bool changed = false;
    for (int i = 0; i < static_cast<int>(p.switches.size()); ++i) {
      if (level[i] >= 0 || children[i].empty()) continue;
      int lvl = 0;
      bool resolved = true;
      for (int c : children[i]) {
        if (level[c] < 0) resolved = false;
        lvl = std::max(lvl, level[c] + 1);
      }
      if (resolved) level[i] = lvl, changed = true;
    }
    if (!changed) break;
  }
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i)
    if (level[i] < 0 && !children[i].empty()) {
      out.errors.push_back({p.switches[i].line, "Switch configuration is not a tree (" + p.switches[i].name +
                                                    " is part of a cycle)"});
      break;
    }

  // Nodes: under more than one leaf, unknown to Slurm, or known to Slurm but under no leaf.
  // Sorted listings rather than a map of strings, which cost as much as the rest of the check
  // on a large tree.
  const std::vector<NodeListing> listed = node_listings(p);
  std::vector<std::pair<size_t, std::string_view>> again;  // listings after a node's first, in file order
  std::vector<std::string_view> nodes;                       // each node once, by name
  for (size_t i = 0; i < listed.size(); ++i) {
    if (i > 0 && listed[i].node == listed[i - 1].node) again.emplace_back(listed[i].order, listed[i].node);
    else nodes.push_back(listed[i].node);
  }
  std::sort(again.begin(), again.end());
  std::vector<std::string> twice, unknown;
  for (const auto& [order, n] : again) twice.emplace_back(n);
  if (!twice.empty())
    out.warnings.push_back({0, "Multiple leaf switches contain nodes: " + summary(twice)});
  if (options.slurm_nodes) {
    const auto& known = *options.slurm_nodes;
    for (std::string_view n : nodes)
      if (!std::binary_search(known.begin(), known.end(), n,
                              [](const auto& a, const auto& b) { return natural_less(a, b); }))
        unknown.emplace_back(n);
    if (!unknown.empty())
      out.warnings.push_back({0, "Invalid hostnames in switch configuration (not in slurm.conf): " + summary(unknown)});
    std::vector<std::string> orphans;
    for (const auto& n : known)
      if (!std::binary_search(nodes.begin(), nodes.end(), std::string_view(n))) orphans.push_back(n);
    if (!orphans.empty())
      out.warnings.push_back({0, "switches lack access to " + std::to_string(orphans.size()) +
                                     " nodes (the tree plugin can never allocate them): " + summary(orphans)});
  }
  int roots = 0;
  for (int i = 0; i < static_cast<int>(p.switches.size()); ++i)
    if (parents[i] == 0) ++roots;
  if (roots > std::max(1, options.expected_roots))
    out.warnings.push_back({0, "no switch can reach all nodes: " + std::to_string(roots) +
                                   " roots, so jobs cannot span them"});
  return out;
}

}  // namespace slurmtopo
