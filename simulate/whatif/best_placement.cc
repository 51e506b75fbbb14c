#include "simulate/whatif/best_placement.h"

#include <algorithm>

namespace slurmtopo {

namespace {

struct Fill {
  const LeafTree& t;
  const std::vector<char>& busy;
  std::vector<int> free;  // free nodes below each switch
  std::vector<int> out;

  int count(int s) {
    if (free[s] >= 0) return free[s];
    int n = 0;
    for (int node : t.leaf_nodes[s]) n += !busy[node];
    for (int c : t.children[s]) n += count(c);
    return free[s] = n;
  }

  void take(int s, int need) {
    for (int node : t.leaf_nodes[s]) {
      if (need == 0) return;
      if (!busy[node]) {
        out.push_back(node);
        --need;
      }
    }
    std::vector<int> left = t.children[s];
    while (need > 0 && !left.empty()) {
      auto fits = left.end();
      for (auto it = left.begin(); it != left.end(); ++it)
        if (count(*it) >= need && (fits == left.end() || count(*it) < count(*fits))) fits = it;
      if (fits != left.end()) {
        take(*fits, need);
        return;
      }
      auto most = std::max_element(left.begin(), left.end(), [&](int a, int b) { return count(a) < count(b); });
      const int n = count(*most);
      take(*most, n);
      need -= n;
      left.erase(most);
    }
  }
};

}  // namespace

std::vector<int> best_placement(const LeafTree& tree, const std::vector<char>& busy, int count) {
  Fill f{tree, busy, std::vector<int>(tree.names.size(), -1), {}};
  int top = -1;
  for (int s = 0; s < static_cast<int>(tree.names.size()); ++s) {
    if (f.count(s) < count) continue;
    if (top < 0 || tree.level[s] < tree.level[top] ||
        (tree.level[s] == tree.level[top] && f.count(s) < f.count(top)))
      top = s;
  }
  if (top < 0) return {};
  f.take(top, count);
  std::sort(f.out.begin(), f.out.end());
  return f.out;
}

}  // namespace slurmtopo
