#include "graph/rail_agreement.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_map>

namespace slurmtopo {

namespace {
constexpr double kAgree = 0.9;      // a few miscabled hosts must not split a unit's rails
constexpr size_t kMinShared = 2;   // fewer hosts in common: no evidence either way

double one_way(const std::vector<int>& a, const std::vector<int>& b) {
  std::unordered_map<int, std::unordered_map<int, int>> votes;
  size_t both = 0;
  for (size_t h = 0; h < a.size(); ++h)
    if (a[h] >= 0 && b[h] >= 0) ++votes[a[h]][b[h]], ++both;
  if (both == 0) return 0.0;
  size_t agree = 0;
  for (const auto& [sa, counts] : votes) {
    int best = 0;
    for (const auto& [sb, n] : counts) best = std::max(best, n);
    agree += static_cast<size_t>(best);
  }
  return static_cast<double>(agree) / static_cast<double>(both);
}

size_t distinct_switches(const std::vector<int>& r) {
  std::set<int> s(r.begin(), r.end());
  s.erase(-1);
  return s.size();
}
}  // namespace

double rail_agreement(const std::vector<int>& a, const std::vector<int>& b) {
  return std::min(one_way(a, b), one_way(b, a));
}

std::vector<bool> side_rails(const std::vector<std::vector<int>>& rail_switch) {
  const size_t n = rail_switch.size();
  std::vector<bool> side(n, false);
  if (n < 2) return side;
  // Rails with (almost) no host in common say nothing about each other: hosts of one model
  // call rail 0 "mlx5_0", hosts of another "HCA-1".
  std::vector<std::vector<int>> relation(n, std::vector<int>(n, 0));  // 1 agree, -1 disagree
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b) {
      size_t shared = 0;
      for (size_t h = 0; h < rail_switch[a].size(); ++h) shared += rail_switch[a][h] >= 0 && rail_switch[b][h] >= 0;
      if (shared < kMinShared) continue;
      relation[a][b] = relation[b][a] = rail_agreement(rail_switch[a], rail_switch[b]) >= kAgree ? 1 : -1;
    }
  std::vector<size_t> cluster(n);
  std::iota(cluster.begin(), cluster.end(), 0);
  auto find = [&](size_t x) {
    while (cluster[x] != x) x = cluster[x] = cluster[cluster[x]];
    return x;
  };
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b)
      if (relation[a][b] == 1) cluster[find(b)] = find(a);
  // The defining cluster: most HCAs, then the finer split (more switches).
  std::vector<size_t> hcas(n, 0), switches(n, 0);
  for (size_t r = 0; r < n; ++r) {
    for (int s : rail_switch[r]) hcas[find(r)] += s >= 0;
    switches[find(r)] += distinct_switches(rail_switch[r]);
  }
  size_t best = find(0);
  for (size_t r = 0; r < n; ++r) {
    size_t c = find(r);
    if (hcas[c] > hcas[best] || (hcas[c] == hcas[best] && switches[c] > switches[best])) best = c;
  }
  for (size_t r = 0; r < n; ++r) {
    if (find(r) == best) continue;
    for (size_t q = 0; q < n; ++q)
      if (find(q) == best && relation[r][q] == -1) side[r] = true;
  }
  return side;
}

}  // namespace slurmtopo
