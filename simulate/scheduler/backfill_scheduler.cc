#include "simulate/scheduler/backfill_scheduler.h"

#include <algorithm>
#include <deque>
#include <queue>
#include <set>

namespace slurmtopo {

namespace {

struct State {
  const std::vector<WorkloadJob>& jobs;
  const PlaceJob& place;
  const JobStarted& started;
  std::vector<ScheduledJob> out;
  std::vector<char> busy;
  int free = 0;
  std::multiset<std::pair<int64_t, int>> planned;  // (start + time limit, job) of running jobs
  std::priority_queue<std::pair<int64_t, int>, std::vector<std::pair<int64_t, int>>, std::greater<>> ends;
  int started_count = 0;

  bool try_start(int j, int64_t now, bool backfilled) {
    const WorkloadJob& job = jobs[j];
    if (job.nodes > free) return false;
    std::vector<int> nodes = place(job, busy);
    if (nodes.empty()) return false;
    if (started) started(j, busy);
    for (int n : nodes) busy[n] = 1;
    free -= static_cast<int>(nodes.size());
    ScheduledJob& s = out[j];
    s.start = now;
    s.end = now + job.run_time;
    s.nodes = std::move(nodes);
    s.backfilled = backfilled;
    planned.insert({now + job.time_limit, j});
    ends.push({s.end, j});
    ++started_count;
    return true;
  }

  void finish(int j) {
    for (int n : out[j].nodes) busy[n] = 0;
    free += static_cast<int>(out[j].nodes.size());
    planned.erase(planned.find({out[j].start + jobs[j].time_limit, j}));
  }
};

}  // namespace

std::vector<ScheduledJob> schedule_easy_backfill(const std::vector<WorkloadJob>& jobs, const std::vector<char>& down,
                                                 const PlaceJob& place, const BackfillOptions& options,
                                                 const JobStarted& started, const ReplayProgress& progress) {
  State st{jobs, place, started, std::vector<ScheduledJob>(jobs.size()), down, 0, {}, {}, 0};
  const int up = static_cast<int>(std::count(down.begin(), down.end(), 0));
  st.free = up;
  std::deque<int> queue;
  size_t next_submit = 0;
  int settled = 0;  // started or given up
  while (next_submit < jobs.size() || !st.ends.empty() || !queue.empty()) {
    int64_t now;
    if (st.ends.empty() && next_submit == jobs.size()) break;  // queued jobs that can never start
    if (st.ends.empty()) now = jobs[next_submit].submit;
    else if (next_submit == jobs.size()) now = st.ends.top().first;
    else now = std::min(st.ends.top().first, jobs[next_submit].submit);
    while (!st.ends.empty() && st.ends.top().first == now) {
      st.finish(st.ends.top().second);
      st.ends.pop();
    }
    while (next_submit < jobs.size() && jobs[next_submit].submit <= now) {
      if (jobs[next_submit].nodes > up) ++settled;  // never fits in what is up: stays pending
      else queue.push_back(static_cast<int>(next_submit));
      ++next_submit;
    }
    // FCFS: the head starts while it can.
    while (!queue.empty() && st.try_start(queue.front(), now, false)) {
      queue.pop_front();
      ++settled;
    }
    if (queue.empty()) {
      if (progress) progress(settled, static_cast<int>(jobs.size()));
      continue;
    }
    // The head's reservation: the planned end at which enough nodes are free by count, and
    // the nodes beyond its need at that time.
    const WorkloadJob& head = jobs[queue.front()];
    int64_t shadow = INT64_MAX;
    int extra = 0;
    int avail = st.free;
    for (const auto& [end, j] : st.planned) {
      avail += static_cast<int>(st.out[j].nodes.size());
      if (avail >= head.nodes) {
        shadow = end;
        extra = avail - head.nodes;
        break;
      }
    }
    if (st.free >= head.nodes) extra = 0;  // counted enough but the placement refused: no spare
    int tested = 0;
    for (auto it = std::next(queue.begin()); it != queue.end() && tested < options.max_job_test;) {
      ++tested;
      const WorkloadJob& job = jobs[*it];
      const bool before_shadow = now + job.time_limit <= shadow;
      if ((before_shadow || job.nodes <= extra) && st.try_start(*it, now, true)) {
        if (!before_shadow) extra -= job.nodes;
        it = queue.erase(it);
        ++settled;
      } else {
        ++it;
      }
    }
    if (progress) progress(settled, static_cast<int>(jobs.size()));
  }
  return std::move(st.out);
}

}  // namespace slurmtopo
