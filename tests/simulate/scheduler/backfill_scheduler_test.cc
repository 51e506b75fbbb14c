// FCFS with EASY backfill on 4 nodes, every expected schedule worked out by hand in the
// comments. The placement here is first fit (the lowest free node numbers), so which nodes a
// job gets is easy to follow; the replay uses Slurm's placement instead.
#include "simulate/scheduler/backfill_scheduler.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {

WorkloadJob job(int64_t submit, int nodes, int64_t run, int64_t limit) {
  WorkloadJob j;
  j.submit = submit;
  j.nodes = nodes;
  j.run_time = run;
  j.time_limit = limit;
  return j;
}

std::vector<int> first_fit(const WorkloadJob& j, const std::vector<char>& busy) {
  std::vector<int> out;
  for (int n = 0; n < static_cast<int>(busy.size()) && static_cast<int>(out.size()) < j.nodes; ++n)
    if (!busy[n]) out.push_back(n);
  return static_cast<int>(out.size()) == j.nodes ? out : std::vector<int>{};
}

std::vector<ScheduledJob> run(const std::vector<WorkloadJob>& jobs, std::vector<char> down = std::vector<char>(4, 0),
                              BackfillOptions options = {}) {
  return schedule_easy_backfill(jobs, down, first_fit, options);
}

}  // namespace

TEST_CASE("backfill: FCFS keeps order when nothing fits before the reservation") {
  // J0 takes all 4 nodes until 100. J1 (2 nodes) is the head: reservation at 100. Nothing else.
  const auto s = run({job(0, 4, 100, 100), job(0, 2, 50, 50)});
  CHECK(s[0].start == 0);
  CHECK(s[0].end == 100);
  CHECK(s[1].start == 100);
  CHECK(s[1].end == 150);
  CHECK(s[1].nodes == std::vector<int>{0, 1});
  CHECK_FALSE(s[1].backfilled);
}

TEST_CASE("backfill: a short job starts in the head's shadow, a long one waits") {
  // t=0: J0 (2 nodes, to 100) starts on 0-1. J1 needs 4: 2 free, reservation at 100 (J0's
  // limit), no spare nodes then. J2 (2 nodes, limit 50) ends by 100: backfilled on 2-3.
  // J3 (2 nodes, limit 200) would delay J1 and no node is free: waits.
  // t=50: J2 ends; J1 still needs 4; J3 (to 250) would cross 100 with no spare node: waits.
  // t=100: J0 ends, J1 starts (to 110). t=110: J3 starts (to 310).
  const auto s = run({job(0, 2, 100, 100), job(0, 4, 10, 10), job(0, 2, 50, 50), job(0, 2, 200, 200)});
  CHECK(s[0].start == 0);
  CHECK(s[2].start == 0);
  CHECK(s[2].backfilled);
  CHECK(s[2].nodes == std::vector<int>{2, 3});
  CHECK(s[1].start == 100);
  CHECK(s[1].nodes == std::vector<int>{0, 1, 2, 3});
  CHECK(s[3].start == 110);
  CHECK(s[3].end == 310);
  CHECK_FALSE(s[3].backfilled);
}

TEST_CASE("backfill: a long job may use the nodes the head will not need") {
  // J0 takes 0-2 until 100. J1 (2 nodes) waits: at 100, 4 nodes free, 2 spare. J2 (1 node,
  // limit 500) crosses the reservation but fits in the spare nodes: starts at 0 on node 3.
  // At 100 J1 gets 0-1.
  const auto s = run({job(0, 3, 100, 100), job(0, 2, 10, 10), job(0, 1, 500, 500)});
  CHECK(s[2].start == 0);
  CHECK(s[2].nodes == std::vector<int>{3});
  CHECK(s[2].backfilled);
  CHECK(s[1].start == 100);
  CHECK(s[1].nodes == std::vector<int>{0, 1});
}

TEST_CASE("backfill: the spare nodes are used up once") {
  // J0 takes 0-1 until 100. J1 needs 3: 2 free now; at 100, 4 free, 1 spare. J2 (1 node,
  // long) takes the spare node 2. J3 (1 node, long) finds node 3 free, but no spare is left
  // and it would cross the reservation: waits. At 100 J1 gets 0, 1 and 3; J3 starts when J1
  // ends at 110.
  const auto s = run({job(0, 2, 100, 100), job(0, 3, 10, 10), job(0, 1, 500, 500), job(0, 1, 500, 500)});
  CHECK(s[2].start == 0);
  CHECK(s[2].nodes == std::vector<int>{2});
  CHECK(s[1].start == 100);
  CHECK(s[1].nodes == std::vector<int>{0, 1, 3});
  CHECK(s[3].start == 110);
}

TEST_CASE("backfill: jobs end at their run time, earlier than their limit") {
  // J0 runs 30 s of a 100 s limit: J1 starts at 30, not 100.
  const auto s = run({job(0, 4, 30, 100), job(0, 4, 10, 10)});
  CHECK(s[1].start == 30);
}

TEST_CASE("backfill: later submissions wait for their submit time") {
  const auto s = run({job(0, 1, 10, 10), job(25, 4, 10, 10), job(26, 1, 5, 5)});
  CHECK(s[0].start == 0);
  CHECK(s[1].start == 25);
  CHECK(s[2].start == 35);
}

TEST_CASE("backfill: a job larger than the nodes up never starts and blocks no one") {
  std::vector<char> down{1, 0, 0, 0};
  const auto s = run({job(0, 4, 10, 10), job(0, 1, 10, 10)}, down);
  CHECK(s[0].start == -1);
  CHECK(s[1].start == 0);
  CHECK(s[1].nodes == std::vector<int>{1});
}

TEST_CASE("backfill: bf_max_job_test bounds how deep the queue is searched") {
  // J0 blocks J1 (head). J2 (3 nodes, long) cannot backfill; J3 (1 node, short) can, but only
  // if the scan reaches it: with max_job_test 1 only J2 is tested.
  const std::vector<WorkloadJob> jobs{job(0, 3, 100, 100), job(0, 4, 10, 10), job(0, 3, 500, 500), job(0, 1, 10, 10)};
  CHECK(run(jobs)[3].start == 0);
  BackfillOptions shallow;
  shallow.max_job_test = 1;
  CHECK(run(jobs, std::vector<char>(4, 0), shallow)[3].start > 0);
}

TEST_CASE("backfill: the start callback sees the nodes busy before the job") {
  std::vector<std::vector<char>> seen(2);
  schedule_easy_backfill({job(0, 2, 100, 100), job(0, 1, 10, 10)}, std::vector<char>(4, 0), first_fit, {},
                         [&](int j, const std::vector<char>& busy) { seen[j] = busy; });
  CHECK(seen[0] == std::vector<char>{0, 0, 0, 0});
  CHECK(seen[1] == std::vector<char>{1, 1, 0, 0});
}
