#include "graph/grouping.h"

#include <algorithm>
#include <map>

namespace slurmtopo {

namespace {
using Set = std::vector<int>;

bool disjoint(const Set& a, const Set& b) {
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) return false;
    a[i] < b[j] ? ++i : ++j;
  }
  return true;
}

size_t overlap(const Set& a, const Set& b) {
  size_t n = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) ++n, ++i, ++j;
    else a[i] < b[j] ? ++i : ++j;
  }
  return n;
}

Set difference(const Set& a, const Set& b) {
  Set out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// A switch is secondary when it carries all hosts of two other switches that share no host:
// it joins units that are otherwise apart, like a storage rail does.
std::vector<bool> find_secondary(const std::vector<Set>& host_leaves,
                                 const std::vector<Set>& switch_hosts) {
  std::vector<bool> secondary(switch_hosts.size(), false);
  for (size_t s = 0; s < switch_hosts.size(); ++s) {
    const Set& hs = switch_hosts[s];
    if (hs.size() < 2) continue;
    Set candidates;
    for (int h : hs)
      for (int c : host_leaves[h])
        if (c != static_cast<int>(s)) candidates.push_back(c);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<const Set*> covered;
    for (int c : candidates) {
      const Set& hc = switch_hosts[c];
      if (!hc.empty() && hc.size() < hs.size() &&
          std::includes(hs.begin(), hs.end(), hc.begin(), hc.end()))
        covered.push_back(&hc);
    }
    for (size_t i = 0; i < covered.size() && !secondary[s]; ++i)
      for (size_t j = i + 1; j < covered.size(); ++j)
        if (disjoint(*covered[i], *covered[j])) {
          secondary[s] = true;
          break;
        }
  }
  return secondary;
}
}  // namespace

GroupingResult group_hosts(const std::vector<std::vector<int>>& host_switches,
                           int num_switches) {
  const int num_hosts = static_cast<int>(host_switches.size());
  std::vector<Set> host_leaves(num_hosts);
  std::vector<Set> switch_hosts(num_switches);
  for (int h = 0; h < num_hosts; ++h) {
    host_leaves[h] = host_switches[h];
    std::sort(host_leaves[h].begin(), host_leaves[h].end());
    host_leaves[h].erase(std::unique(host_leaves[h].begin(), host_leaves[h].end()),
                         host_leaves[h].end());
    for (int s : host_leaves[h]) switch_hosts[s].push_back(h);
  }

  GroupingResult result;
  result.secondary = find_secondary(host_leaves, switch_hosts);

  // Hosts by their primary leaf set (a host only on secondary switches keeps those).
  std::map<Set, Set> raw;
  for (int h = 0; h < num_hosts; ++h) {
    if (host_leaves[h].empty()) continue;
    Set primary;
    for (int s : host_leaves[h])
      if (!result.secondary[s]) primary.push_back(s);
    raw[primary.empty() ? host_leaves[h] : primary].push_back(h);
  }

  // Large groups define the units; a smaller group whose leaves mostly lie in a larger one's
  // is the same unit with a cabling fault, not a unit of its own.
  struct Raw { const Set* leaves; const Set* hosts; };
  std::vector<Raw> order;
  for (const auto& [leaves, hosts] : raw) order.push_back({&leaves, &hosts});
  std::sort(order.begin(), order.end(), [](const Raw& a, const Raw& b) {
    if (a.hosts->size() != b.hosts->size()) return a.hosts->size() > b.hosts->size();
    return a.hosts->front() < b.hosts->front();
  });
  std::vector<int> accepted;                         // indices into order
  std::vector<std::vector<int>> accepted_by_leaf(num_switches);
  std::vector<int> target(order.size(), -1);         // order index → accepted order index
  for (size_t g = 0; g < order.size(); ++g) {
    const Set& leaves = *order[g].leaves;
    int best = -1;
    size_t best_overlap = 0;
    for (int s : leaves)
      for (int a : accepted_by_leaf[s]) {
        size_t o = overlap(leaves, *order[a].leaves);
        if (o > best_overlap || (o == best_overlap && best >= 0 && a < best)) {
          best = a;
          best_overlap = o;
        }
      }
    if (best >= 0 && 2 * best_overlap > leaves.size() &&
        order[best].hosts->size() > order[g].hosts->size()) {
      target[g] = best;
      continue;
    }
    target[g] = static_cast<int>(g);
    accepted.push_back(static_cast<int>(g));
    for (int s : leaves) accepted_by_leaf[s].push_back(static_cast<int>(g));
  }

  // Number groups by their first host so output follows Slurm's node order.
  std::vector<std::pair<int, int>> firsts;  // (first host, accepted order index)
  std::vector<int> first_host(order.size(), num_hosts);
  for (size_t g = 0; g < order.size(); ++g)
    first_host[target[g]] = std::min(first_host[target[g]], order[g].hosts->front());
  for (int a : accepted) firsts.push_back({first_host[a], a});
  std::sort(firsts.begin(), firsts.end());
  std::vector<int> group_of(order.size(), -1);
  for (size_t i = 0; i < firsts.size(); ++i) {
    group_of[firsts[i].second] = static_cast<int>(i);
    result.group_leaves.push_back(*order[firsts[i].second].leaves);
  }

  result.host_group.assign(num_hosts, -1);
  for (size_t g = 0; g < order.size(); ++g) {
    int group = group_of[target[g]];
    for (int h : *order[g].hosts) {
      result.host_group[h] = group;
      if (target[g] != static_cast<int>(g))
        result.deviations.push_back({h, group,
                                     difference(result.group_leaves[group], *order[g].leaves),
                                     difference(*order[g].leaves, result.group_leaves[group])});
    }
  }
  std::sort(result.deviations.begin(), result.deviations.end(),
            [](const auto& a, const auto& b) { return a.host < b.host; });
  return result;
}

}  // namespace slurmtopo
