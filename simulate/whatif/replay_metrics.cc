#include "simulate/whatif/replay_metrics.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace slurmtopo {

Distribution distribution(std::vector<double> v) {
  std::erase_if(v, [](double x) { return !std::isfinite(x); });
  Distribution d;
  d.count = static_cast<int>(v.size());
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  auto rank = [&](double p) { return v[static_cast<size_t>(std::max(1.0, std::ceil(p / 100 * v.size()))) - 1]; };
  double sum = 0;
  for (double x : v) sum += x;
  d.mean = sum / v.size();
  d.p50 = rank(50);
  d.p90 = rank(90);
  d.p99 = rank(99);
  d.max = v.back();
  return d;
}

ReplayMetrics replay_metrics(const std::vector<WorkloadJob>& jobs, const std::vector<ScheduledJob>& schedule,
                             const LeafTree& leaves, const std::vector<char>& down,
                             const std::vector<double>& slowdowns, const std::vector<double>& busbw) {
  ReplayMetrics m;
  std::vector<double> job_busbw;
  m.jobs = static_cast<int>(jobs.size());
  std::vector<double> waits, slow;
  int64_t first = INT64_MAX, last = INT64_MIN;
  double used = 0;
  // Occupancy changes: (time, +1 start / -1 end, job); ends first at equal times.
  std::vector<std::tuple<int64_t, int, int>> events;
  for (size_t j = 0; j < jobs.size(); ++j) {
    first = std::min(first, jobs[j].submit);
    const ScheduledJob& s = schedule[j];
    if (s.start < 0) continue;
    ++m.started;
    m.backfilled += s.backfilled;
    waits.push_back(static_cast<double>(s.start - jobs[j].submit));
    last = std::max(last, s.end);
    used += static_cast<double>(s.nodes.size()) * static_cast<double>(s.end - s.start);
    if (s.nodes.size() > 1) {
      ++m.multi_node;
      m.span_leaves += leaves.leaves_spanned(s.nodes) > 1;
      m.span_groups += leaves.groups_spanned(s.nodes) > 1;
      if (j < busbw.size()) job_busbw.push_back(busbw[j]);
      if (j < slowdowns.size() && std::isfinite(slowdowns[j])) {
        slow.push_back(slowdowns[j]);
        m.slowed += slowdowns[j] > 1.05;
      }
    }
    events.emplace_back(s.start, 1, static_cast<int>(j));
    events.emplace_back(s.end, -1, static_cast<int>(j));
  }
  m.slowdown = distribution(slow);
  m.busbw = distribution(job_busbw);
  const Distribution w = distribution(waits);
  m.mean_wait = w.mean;
  m.p90_wait = w.p90;
  if (m.started == 0) return m;
  m.makespan = last - first;
  const int up = static_cast<int>(std::count(down.begin(), down.end(), 0));
  if (m.makespan > 0 && up > 0) m.utilisation = used / (static_cast<double>(up) * m.makespan);

  // Free nodes per leaf over time; a leaf is partly busy when some but not all of its up
  // nodes are allocated.
  const size_t L = leaves.leaf_nodes.size();
  std::vector<int> leaf_up(L, 0), leaf_busy(L, 0);
  int total_free = up;
  for (size_t n = 0; n < down.size(); ++n)
    if (!down[n] && leaves.node_leaf[n] >= 0) ++leaf_up[leaves.node_leaf[n]];
  int partial_free = 0;
  auto partial = [&](size_t l) { return leaf_busy[l] > 0 && leaf_busy[l] < leaf_up[l] ? leaf_up[l] - leaf_busy[l] : 0; };
  std::sort(events.begin(), events.end());
  double area = 0;
  int64_t at = std::get<0>(events.front());
  for (const auto& [time, delta, j] : events) {
    if (total_free > 0) area += static_cast<double>(partial_free) / total_free * static_cast<double>(time - at);
    at = time;
    for (int n : schedule[j].nodes) {
      total_free -= delta;
      const int l = leaves.node_leaf[n];
      if (l < 0) continue;
      partial_free -= partial(l);
      leaf_busy[l] += delta;
      partial_free += partial(l);
    }
  }
  const int64_t span = last - std::get<0>(events.front());
  if (span > 0) m.fragmentation = area / static_cast<double>(span);
  return m;
}

}  // namespace slurmtopo
