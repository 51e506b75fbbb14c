#include "graph/rail_positions.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "graph/cluster.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
// "mlx5_4" → ("mlx5_", 4); "ib0" → ("ib", 0); "eth" → ("eth", -1).
std::pair<std::string, long> family(const std::string& name) {
  size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end == name.size() || name.size() - end > 9) return {name, -1};
  return {name.substr(0, end), std::stol(name.substr(end))};
}

std::string port_of(const Cluster& c, const Hca& h) {
  if (h.switches.empty()) return "(no switch)";
  return c.switches[h.switches.front()].name + "[" + std::to_string(h.ports.front()) + "]";
}

std::string hca_label(const Hca& h) { return h.rail.empty() ? "0x" + guid_hex(h.guid) : h.rail; }

std::string rail_label(const Cluster& c, int r) {
  const Rail& rail = c.rails[r];
  std::string names;
  for (size_t i = 0; i < rail.hca_names.size() && i < 3; ++i) names += (i ? ", " : "") + rail.hca_names[i];
  return rail.name + (names.empty() ? "" : " (" + names + ")");
}

std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> out(1);
  for (char ch : name) {
    if (ch == '-') out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

// The name a missing rail-r leaf of `unit` would have: the unit's name with its varying word
// ("x") as the other units' rail-r leaves spell it, when they all agree; "" otherwise.
std::string expected_leaf_name(const Cluster& c, const Group& unit, int r) {
  const std::vector<std::string> pattern = words(unit.name);
  const auto x = std::find(pattern.begin(), pattern.end(), "x");
  if (x == pattern.end() || std::count(pattern.begin(), pattern.end(), "x") != 1) return "";
  const size_t at = static_cast<size_t>(x - pattern.begin());
  std::set<std::string> spelled;
  for (const auto& s : c.switches) {
    if (s.rail != r || s.role != SwitchRole::Leaf) continue;
    const std::vector<std::string> w = words(s.name);
    if (w.size() != pattern.size()) return "";
    spelled.insert(w[at]);
  }
  if (spelled.size() != 1) return "";
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) out += (i ? "-" : "") + (i == at ? *spelled.begin() : pattern[i]);
  return out;
}
}  // namespace

std::vector<int> name_slots(const std::vector<std::string>& names) {
  // Most fabrics have a handful of distinct names: rank those, then look each name up.
  std::unordered_map<std::string, int> distinct;
  for (const auto& n : names)
    if (!n.empty()) distinct.emplace(n, 0);
  std::map<std::string, std::set<long>> numbers;
  for (const auto& [n, slot] : distinct) {
    auto [fam, number] = family(n);
    numbers[fam].insert(number);
  }
  for (auto& [n, slot] : distinct) {
    auto [fam, number] = family(n);
    const auto& set = numbers[fam];
    slot = static_cast<int>(std::distance(set.begin(), set.find(number)));
  }
  std::vector<int> out;
  out.reserve(names.size());
  for (const auto& n : names) out.push_back(n.empty() ? -1 : distinct.find(n)->second);
  return out;
}

void assign_rails(Cluster& c, const std::vector<bool>& side) {
  // Each leaf of a unit of several leaves: the slot most of its compute HCAs have.
  std::vector<std::map<int, int>> votes(c.switches.size());
  for (const auto& h : c.hosts)
    if (h.group >= 0 && c.groups[h.group].leaves.size() > 1)
      for (int i : h.hcas)
        if (c.hcas[i].slot >= 0 && !side[c.hcas[i].slot])
          for (int s : c.hcas[i].switches) ++votes[s][c.hcas[i].slot];
  for (const auto& g : c.groups) {
    if (g.leaves.size() < 2) continue;
    for (int s : g.leaves) {
      int best = -1, n = 0;
      for (auto [slot, k] : votes[s])
        if (k > n) best = slot, n = k;
      c.switches[s].rail = best;
    }
  }
  std::vector<std::unordered_map<std::string, int>> names;  // position → HCA name → count
  int positions = static_cast<int>(side.size());
  for (const auto& h : c.hosts)
    for (int i : h.hcas) {
      Hca& hca = c.hcas[i];
      const int leaf_rail = hca.switches.empty() ? -1 : c.switches[hca.switches.front()].rail;
      hca.position = leaf_rail >= 0 ? leaf_rail : hca.slot;
      if (hca.position < 0) continue;
      positions = std::max(positions, hca.position + 1);
      if (names.size() <= static_cast<size_t>(hca.position)) names.resize(hca.position + 1);
      ++names[hca.position][hca.rail];
    }
  c.rails.assign(positions, Rail{});
  for (int r = 0; r < positions; ++r) {
    c.rails[r].name = "rail " + std::to_string(r + 1);
    c.rails[r].side = r < static_cast<int>(side.size()) && side[r];
    std::vector<std::pair<int, std::string>> by_count;
    if (static_cast<size_t>(r) < names.size())
      for (const auto& [name, k] : names[r])
        if (!name.empty()) by_count.push_back({-k, name});
    std::sort(by_count.begin(), by_count.end());
    // A name a few strays carry (a crossed cable, a service host) does not name the rail.
    for (const auto& [k, name] : by_count)
      if (-k >= 2 && -k * 10 >= -by_count.front().first) c.rails[r].hca_names.push_back(name);
  }
}

void record_rail_anomalies(Cluster& c) {
  using K = Anomaly::Kind;
  // Crossed rails: a host's slot-j HCA on the rail-k leaf and its slot-k HCA on the rail-j leaf.
  for (const auto& h : c.hosts) {
    if (h.group < 0 || c.groups[h.group].leaves.size() < 2) continue;
    for (int i : h.hcas)
      for (int j : h.hcas) {
        const Hca &a = c.hcas[i], &b = c.hcas[j];
        if (a.slot < 0 || b.slot <= a.slot || a.switches.empty() || b.switches.empty()) continue;
        const int ra = c.switches[a.switches.front()].rail, rb = c.switches[b.switches.front()].rail;
        if (ra != b.slot || rb != a.slot) continue;
        const std::string sa = c.switches[a.switches.front()].name, sb = c.switches[b.switches.front()].name;
        c.anomalies.push_back(
            {K::CrossedRails, h.name,
             hca_label(a) + " is cabled to " + port_of(c, a) + " and " + hca_label(b) + " to " + port_of(c, b) +
                 ", the reverse of its unit's other hosts (" + hca_label(a) + " on " + sb + ", " + hca_label(b) +
                 " on " + sa + "): swap the cables " + h.name + " " + hca_label(a) + " - " + port_of(c, a) + " and " +
                 h.name + " " + hca_label(b) + " - " + port_of(c, b)});
      }
  }
  // A unit with no leaf for a rail the other units have: the switch is down or was not swept.
  std::set<int> compute_rails;
  for (const auto& s : c.switches)
    if (s.rail >= 0 && s.role == SwitchRole::Leaf) compute_rails.insert(s.rail);
  for (const auto& g : c.groups) {
    if (g.leaves.size() < 2) continue;
    std::set<int> present;
    for (int s : g.leaves) present.insert(c.switches[s].rail);
    for (int r : compute_rails) {
      if (present.count(r)) continue;
      std::vector<std::string> others;
      for (const auto& s : c.switches)
        if (s.rail == r && s.role == SwitchRole::Leaf && s.fabric == g.fabric) others.push_back(s.name);
      const std::string expected = expected_leaf_name(c, g, r);
      c.anomalies.push_back(
          {K::MissingLeaf, g.name,
           "no leaf for " + rail_label(c, r) + ": no host of the unit reaches one, while " +
               std::to_string(others.size()) + " other units have theirs (" + compress_hostlist(others) + ")" +
               (expected.empty() ? "" : "; " + expected + " is absent from the sweep (down, or not cabled?)")});
    }
  }
}

}  // namespace slurmtopo
