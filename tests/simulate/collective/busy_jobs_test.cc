#include "simulate/collective/busy_jobs.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("busy jobs: one job a line, hostlist, collective, size — comments and blanks skipped") {
  const std::vector<BusyJob> jobs = parse_busy_jobs(
      "# running now\n"
      "dgx[001-003] allreduce 256M\n"
      "\n"
      "dgx010,dgx012  allgather 1G   # a comment\n",
      "busy.txt");
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].hosts == std::vector<std::string>{"dgx001", "dgx002", "dgx003"});
  CHECK(jobs[0].collective == Collective::AllReduce);
  CHECK(jobs[0].bytes == 256.0 * 1024 * 1024);
  CHECK(jobs[0].line == 2);
  CHECK(jobs[1].hosts == std::vector<std::string>{"dgx010", "dgx012"});
  CHECK(jobs[1].collective == Collective::AllGather);
  CHECK(jobs[1].line == 4);
}

TEST_CASE("busy jobs: a bad line is an error naming file and line") {
  CHECK_THROWS_WITH(parse_busy_jobs("dgx001 allreduce\n", "busy.txt"), doctest::Contains("busy.txt:1"));
  CHECK_THROWS_WITH(parse_busy_jobs("\ndgx001 allsum 1M\n", "busy.txt"), doctest::Contains("busy.txt:2"));
  CHECK_THROWS_WITH(parse_busy_jobs("dgx001 allreduce lots\n", "busy.txt"), doctest::Contains("busy.txt:1"));
  CHECK_THROWS_WITH(parse_busy_jobs("dgx[001-\n", "busy.txt"), doctest::Contains("busy.txt:1"));
  CHECK_THROWS_AS(parse_busy_jobs("dgx[001-\n", "busy.txt"), InputError);
}
