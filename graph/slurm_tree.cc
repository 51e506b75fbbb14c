#include "graph/slurm_tree.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "graph/cluster.h"
#include "graph/unit_names.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

std::vector<int> SlurmTree::roots() const {
  std::vector<bool> is_child(switches.size(), false);
  for (const auto& s : switches)
    for (int c : s.children) is_child[c] = true;
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(switches.size()); ++i)
    if (!is_child[i]) out.push_back(i);
  return out;
}

namespace {

struct Builder {
  const Cluster& c;
  const std::string& regex;
  SlurmTree tree;
  std::vector<int> parent;          // per Slurm switch; -1 while it is a top
  std::vector<int> unit_of_switch;  // per fabric switch: the Slurm switch it belongs to
  std::vector<int> switch_of;       // per vertex: fabric switch index
  std::set<std::string> taken;         // names in the Slurm tree so far
  std::set<std::string> fabric_names;  // derived names must not pose as a real switch

  int top(int u) const {
    while (parent[u] >= 0) u = parent[u];
    return u;
  }

  int add(SlurmSwitch s) {
    tree.switches.push_back(std::move(s));
    parent.push_back(-1);
    return static_cast<int>(tree.switches.size()) - 1;
  }

  // A unit of one switch is that switch and keeps its name; a derived name may neither repeat
  // a Slurm switch nor pose as a fabric switch it does not stand for.
  std::string fresh_name(std::string name, bool is_member) {
    const std::string base = name;
    for (int k = 2; taken.count(name) || (!is_member && fabric_names.count(name)); ++k)
      name = base + "-" + std::to_string(k);
    taken.insert(name);
    return name;
  }

  void leaves() {
    for (const auto& g : c.groups) {
      SlurmSwitch s;
      s.name = g.name;
      s.fabric = g.fabric;
      for (int h : g.hosts) s.nodes.push_back(c.hosts[h].name);
      for (int l : g.leaves) s.members.push_back(c.switches[l].name);
      taken.insert(s.name);
      int u = add(std::move(s));
      for (int l : g.leaves) unit_of_switch[l] = u;
    }
  }

  // Joins the tops below the switches of one level, as many Slurm switches as there are
  // separate sets of joined units.
  void level(int lvl) {
    std::vector<int> uppers;
    for (int s = 0; s < static_cast<int>(c.switches.size()); ++s)
      if (c.switches[s].level == lvl && c.switches[s].role == SwitchRole::Upper) uppers.push_back(s);
    std::map<int, std::vector<int>> below;  // upper switch → tops it reaches one level down
    std::vector<int> dsu(tree.switches.size());
    std::iota(dsu.begin(), dsu.end(), 0);
    auto find = [&](int x) {
      while (dsu[x] != x) x = dsu[x] = dsu[dsu[x]];
      return x;
    };
    for (int s : uppers) {
      std::vector<int> tops;  // sorted and unique below: one allocation, not one per cable
      for (auto [e, end] = boost::out_edges(c.switches[s].vertex, c.graph); e != end; ++e) {
        int n = switch_of[boost::target(*e, c.graph)];
        if (n >= 0 && c.switches[n].level == lvl - 1 && unit_of_switch[n] >= 0)
          tops.push_back(top(unit_of_switch[n]));
      }
      if (tops.empty()) continue;
      std::sort(tops.begin(), tops.end());
      tops.erase(std::unique(tops.begin(), tops.end()), tops.end());
      for (int t : tops) dsu[find(t)] = find(tops.front());
      below[s] = std::move(tops);
    }
    std::map<int, std::pair<std::set<int>, std::vector<int>>> classes;  // root → (tops, members)
    for (const auto& [s, tops] : below) {
      auto& cls = classes[find(tops.front())];
      cls.first.insert(tops.begin(), tops.end());
      cls.second.push_back(s);
    }
    std::vector<std::pair<std::set<int>, std::vector<int>>> ordered;
    for (auto& [root, cls] : classes) ordered.push_back(std::move(cls));
    std::sort(ordered.begin(), ordered.end(),
              [](const auto& a, const auto& b) { return *a.first.begin() < *b.first.begin(); });
    for (const auto& [tops, members] : ordered) {
      if (tops.size() == 1) {  // nothing joined: these switches add no level Slurm can use
        for (int s : members) unit_of_switch[s] = *tops.begin();
        continue;
      }
      SlurmSwitch p;
      p.level = lvl;
      p.fabric = c.switches[members.front()].fabric;
      std::vector<std::string> names;
      for (int s : members) names.push_back(c.switches[s].name);
      std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
      p.members = names;
      p.name = fresh_name(unit_name(names, regex), names.size() == 1);
      p.children.assign(tops.begin(), tops.end());
      int u = add(std::move(p));
      for (int t : tops) parent[t] = u;
      for (int s : members) unit_of_switch[s] = u;
    }
  }

  // Parts of one fabric component still apart at the top are physically connected (sideways
  // cables): give that component a root. Separate components keep separate roots.
  void component_roots() {
    std::map<int, std::set<int>> tops_by_component;
    for (int s = 0; s < static_cast<int>(c.switches.size()); ++s)
      if (unit_of_switch[s] >= 0) tops_by_component[c.switches[s].component].insert(top(unit_of_switch[s]));
    std::map<int, int> parts_per_fabric;
    for (const auto& [comp, tops] : tops_by_component) ++parts_per_fabric[c.component_fabric[comp]];
    std::map<int, int> seen_per_fabric;
    for (const auto& [comp, tops] : tops_by_component) {
      if (tops.size() < 2) continue;
      int f = c.component_fabric[comp];
      int k = ++seen_per_fabric[f];
      SlurmSwitch root;
      root.fabric = f;
      root.level = 0;
      for (int t : tops) root.level = std::max(root.level, tree.switches[t].level + 1);
      std::string base = c.fabrics[f].name.empty() ? "fabric" : c.fabrics[f].name;
      root.name = fresh_name(parts_per_fabric[f] > 1 ? base + "-part" + std::to_string(k) : base + "-root", false);
      root.children.assign(tops.begin(), tops.end());
      int u = add(std::move(root));
      for (int t : tops) parent[t] = u;
    }
  }
};

}  // namespace

SlurmTree build_slurm_tree(const Cluster& c) {
  Builder b{c, c.group_name_regex, {}, {}, {}, {}, {}, {}};
  b.unit_of_switch.assign(c.switches.size(), -1);
  b.switch_of.assign(boost::num_vertices(c.graph), -1);
  for (int s = 0; s < static_cast<int>(c.switches.size()); ++s) {
    b.switch_of[c.switches[s].vertex] = s;
    b.fabric_names.insert(c.switches[s].name);
  }
  b.leaves();
  for (int lvl = 2; lvl <= c.max_level; ++lvl) b.level(lvl);
  b.component_roots();
  return std::move(b.tree);
}

SlurmTree restrict_to_nodes(const SlurmTree& tree, const std::vector<std::string>& keep) {
  SlurmTree out;
  std::vector<int> index(tree.switches.size(), -1);
  for (int i = 0; i < static_cast<int>(tree.switches.size()); ++i) {
    SlurmSwitch s = tree.switches[i];
    std::erase_if(s.nodes, [&](const std::string& n) {
      return !std::binary_search(keep.begin(), keep.end(), n,
                                 [](const auto& a, const auto& b) { return natural_less(a, b); });
    });
    std::vector<int> children;
    for (int ch : s.children)
      if (index[ch] >= 0) children.push_back(index[ch]);
    s.children = children;
    if (s.nodes.empty() && s.children.empty()) continue;
    index[i] = static_cast<int>(out.switches.size());
    out.switches.push_back(std::move(s));
  }
  return out;
}

}  // namespace slurmtopo
