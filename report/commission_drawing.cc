// The fabric drawing's model: Slurm's tree (graph/slurm_tree.h) as boxes per level, runs of
// switches folded into one box when a level has too many to read, cables counted between
// boxes, and every finding placed on the boxes whose switches or hosts it names.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "report/commission_parts.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

Drawing plan_drawing(const Cluster& c, const SlurmTree& tree, const std::vector<Finding>& findings) {
  Drawing d;
  int top = 0;
  for (const auto& s : tree.switches) top = std::max(top, s.level);
  std::vector<std::vector<int>> by_level(top);
  for (int i = 0; i < static_cast<int>(tree.switches.size()); ++i) by_level[tree.switches[i].level - 1].push_back(i);
  // Runs of switches per level, from the top down: a run never mixes switches under different
  // boxes of the level above (children stay under their parent), and runs are as short as
  // keep the level within kDrawingBoxes.
  std::vector<int> parent(tree.switches.size(), -1);
  for (int i = 0; i < static_cast<int>(tree.switches.size()); ++i)
    for (int ch : tree.switches[i].children) parent[ch] = i;
  std::vector<std::vector<std::vector<int>>> runs(top);
  std::vector<int> run_of(tree.switches.size(), -1);
  for (int l = top - 1; l >= 0; --l) {
    auto key = [&](int id) { return parent[id] >= 0 ? run_of[parent[id]] : -1; };
    std::vector<int> ids = by_level[l];
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return key(a) < key(b); });
    for (size_t per = std::max<size_t>(1, (ids.size() + kDrawingBoxes - 1) / kDrawingBoxes);; ++per) {
      std::vector<std::vector<int>> r;
      for (int id : ids) {
        if (r.empty() || r.back().size() == per || key(r.back().front()) != key(id)) r.emplace_back();
        r.back().push_back(id);
      }
      if (r.size() <= static_cast<size_t>(kDrawingBoxes) || per >= ids.size()) {
        runs[l] = std::move(r);
        break;
      }
    }
    for (size_t k = 0; k < runs[l].size(); ++k)
      for (int id : runs[l][k]) run_of[id] = static_cast<int>(k);
  }
  // Slurm switch → flattened box index (leaves first).
  std::vector<int> box_of(tree.switches.size(), -1);
  int flat = 0;
  for (int l = 0; l < top; ++l) {
    d.box_base.push_back(flat);
    std::vector<DrawingBox> boxes;
    for (const auto& run : runs[l]) {
      DrawingBox b;
      b.level = l + 1;
      b.members = static_cast<int>(run.size());
      const SlurmSwitch& first = tree.switches[run.front()];
      b.label = b.members == 1 ? first.name : first.name + " … " + tree.switches[run.back()].name;
      int fabric_switches = 0;
      for (int id : run) {
        const SlurmSwitch& sw = tree.switches[id];
        b.hosts += static_cast<int>(sw.nodes.size());
        fabric_switches += static_cast<int>(sw.members.size());
        box_of[id] = flat + static_cast<int>(boxes.size());
      }
      b.detail = b.label + ": " + (l == 0 ? std::to_string(b.hosts) + " hosts, " : std::string()) +
                 std::to_string(fabric_switches) + " fabric switches" +
                 (b.members > 1 ? ", " + std::to_string(b.members) + " Slurm switches" : std::string());
      if (l == 0 && b.members == 1) b.detail += " (" + compress_hostlist(first.nodes) + ")";
      boxes.push_back(std::move(b));
    }
    flat += static_cast<int>(boxes.size());
    d.levels.push_back(std::move(boxes));
  }
  auto box = [&](int f) -> DrawingBox& {
    int l = static_cast<int>(d.box_base.size()) - 1;
    while (d.box_base[l] > f) --l;
    return d.levels[l][f - d.box_base[l]];
  };

  // Fabric switch (fabric, guid) and host name → box.
  std::map<std::pair<int, uint64_t>, int> switch_box;
  std::unordered_map<std::string, int> name_box;
  std::unordered_map<std::string, int> fabric_switch_index;
  for (int i = 0; i < static_cast<int>(c.switches.size()); ++i) fabric_switch_index[c.switches[i].name] = i;
  for (int i = 0; i < static_cast<int>(tree.switches.size()); ++i) {
    const SlurmSwitch& s = tree.switches[i];
    name_box.emplace(s.name, box_of[i]);
    for (const auto& m : s.members) {
      name_box.emplace(m, box_of[i]);
      auto it = fabric_switch_index.find(m);
      if (it != fabric_switch_index.end()) switch_box[{c.switches[it->second].fabric, c.switches[it->second].guid}] = box_of[i];
    }
    for (const auto& n : s.nodes) name_box.emplace(n, box_of[i]);
  }

  std::map<std::pair<int, int>, int> cables;
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f)
    for (const Link& l : c.fabrics[f].links) {
      auto a = switch_box.find({f, l.a.guid}), b = switch_box.find({f, l.b.guid});
      if (a == switch_box.end() || b == switch_box.end() || a->second == b->second) continue;
      int lo = a->second, hi = b->second;
      if (box(lo).level > box(hi).level) std::swap(lo, hi);
      if (box(lo).level == box(hi).level) continue;  // sideways cables: findings, not edges
      ++cables[{lo, hi}];
    }
  std::map<std::pair<int, int>, int> edge_index;
  for (auto [key, n] : cables) {
    edge_index[key] = static_cast<int>(d.edges.size());
    d.edges.push_back({key.first, key.second, n, 0});
  }

  for (int i = 0; i < static_cast<int>(findings.size()); ++i) {
    // Where the subject is; the detail only when the subject names nothing drawn (an HCA's
    // GUID, whose detail names the leaf it is cabled to).
    std::set<int> boxes;
    for (const std::string* text : {&findings[i].subject, &findings[i].detail}) {
      for (const auto& n : finding_names(*text)) {
        auto it = name_box.find(n);
        if (it != name_box.end() && it->second >= 0) boxes.insert(it->second);
      }
      if (!boxes.empty()) break;
    }
    if (boxes.empty()) {
      d.unplaced.push_back(i);
      continue;
    }
    for (int b : boxes) box(b).findings.push_back(i);
    if (findings[i].subject.find(" - ") != std::string::npos && boxes.size() == 2) {
      auto it = edge_index.find({*boxes.begin(), *boxes.rbegin()});
      if (it == edge_index.end()) it = edge_index.find({*boxes.rbegin(), *boxes.begin()});
      if (it != edge_index.end()) ++d.edges[it->second].flagged;
    }
  }
  return d;
}

}  // namespace slurmtopo
