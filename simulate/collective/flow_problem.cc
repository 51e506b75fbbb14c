#include "simulate/collective/flow_problem.h"

#include <algorithm>

namespace slurmtopo {

Solved solve_problem(const Problem& problem, const Sharing& s, const std::vector<double>& expected) {
  Solved out;
  if (problem.flows.empty()) return out;
  for (size_t f = 0; f < problem.flows.size(); ++f)
    if (problem.mine(f)) out.rate = std::min(out.rate, s.rate[f] / problem.channels(f));

  // The resources that froze a slowest flow, each with a slot for what it is offered.
  std::vector<int> slot(problem.capacity.size(), -1);
  std::vector<int> held;
  for (size_t f = 0; f < problem.flows.size(); ++f) {
    const int r = s.bottleneck[f];
    if (problem.mine(f) && r >= 0 && s.rate[f] / problem.channels(f) <= out.rate * (1 + kSlowestTie) && slot[r] < 0) {
      slot[r] = static_cast<int>(held.size());
      held.push_back(r);
    }
  }
  out.bottleneck_count = static_cast<int>(held.size());
  if (held.empty()) return out;

  std::vector<double> offered(held.size(), 0), flows(held.size(), 0);
  const FlowSet& set = problem.flows;
  for (size_t f = 0; f < set.size(); ++f)
    for (int i = set.begin(f); i < set.end(f); ++i) {
      const int k = slot[set.resources[i]];
      if (k < 0) continue;
      const double w = set.weight(i);
      offered[k] += w * expected[f];
      flows[k] += w * problem.channels(f);
    }
  auto over = [&](int k) {
    const double cap = problem.capacity[held[k]];
    return cap > 0 ? offered[k] / cap : kInf;
  };
  std::vector<int> order(held.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  // Only the first kReported are shown: order those alone (the order is total, so they are
  // the ones a full sort would put first).
  const size_t shown = std::min(order.size(), static_cast<size_t>(kReported));
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int x, int y) {
    return over(x) != over(y) ? over(x) > over(y) : held[x] < held[y];
  });
  order.resize(shown);
  for (int k : order) {
    const int r = held[k];
    Bottleneck b;
    b.resource = problem.name(r);
    b.capacity_gbs = problem.capacity[r];
    b.load_gbs = s.load[r];
    b.offered_gbs = offered[k];
    b.oversubscription = over(k);
    b.flows = flows[k];
    out.bottlenecks.push_back(std::move(b));
  }
  return out;
}


}  // namespace slurmtopo
