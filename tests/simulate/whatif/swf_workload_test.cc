// Reading Parallel Workloads Archive traces: the fields used, -1 as unknown, processors to
// nodes, and every malformed line named by file and line.
#include "simulate/whatif/swf_workload.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;

namespace {

// job submit wait run alloc avgcpu mem reqproc reqtime reqmem status user group exe queue part prev think
const char* kTrace =
    "; Version: 2.2\n"
    "; Computer: test\n"
    ";\n"
    "1 0 5 3600 64 -1 -1 64 7200 -1 1 1 1 1 1 1 -1 -1\n"
    "2 10 0 60 -1 -1 -1 100 -1 -1 1 1 1 1 1 1 -1 -1\n"     // 100 procs on 32-CPU nodes: 4 nodes; no limit
    "\n"
    "3 5 0 600 96 -1 -1 -1 1200 -1 1 1 1 1 1 1 -1 -1\n"    // requested unknown: allocated 96 → 3 nodes
    "4 20 0 -1 32 -1 -1 32 60 -1 0 1 1 1 1 1 -1 -1\n"      // no run time: skipped
    "5 30 0 60 -1 -1 -1 -1 60 -1 1 1 1 1 1 1 -1 -1\n"      // no size at all: skipped
    "6 40 0 60 9999 -1 -1 9999 60 -1 1 1 1 1 1 1 -1 -1\n"  // larger than the partition: skipped
    "7 50 0 30 32 12.5 -1 32 20 -1 1 1 1 1 1 1 -1 -1\n";   // limit under the run time: the run time

}  // namespace

TEST_CASE("swf: the used fields become whole-node jobs in submit order") {
  const Workload w = parse_swf(kTrace, "trace.swf", 32, 64);
  REQUIRE(w.jobs.size() == 4);
  CHECK(w.skipped_unknown == 2);
  CHECK(w.skipped_too_large == 1);
  // Job 3 (submit 5) comes before job 2 (submit 10).
  CHECK(w.jobs[0].id == 1);
  CHECK(w.jobs[1].id == 3);
  CHECK(w.jobs[2].id == 2);
  CHECK(w.jobs[0].nodes == 2);
  CHECK(w.jobs[0].run_time == 3600);
  CHECK(w.jobs[0].time_limit == 7200);
  CHECK(w.jobs[0].line == 4);
  CHECK(w.jobs[1].nodes == 3);
  CHECK(w.jobs[2].nodes == 4);
  CHECK(w.jobs[2].time_limit == 60);
  CHECK(w.jobs[3].id == 7);
  CHECK(w.jobs[3].time_limit == 30);
}

TEST_CASE("swf: a malformed line is an InputError naming file and line") {
  auto error_of = [](const std::string& text) {
    try {
      parse_swf(text, "bad.swf", 1, 100);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string good = "1 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n";
  CHECK(error_of("; header\n" + good + "2 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1\n") ==
        "bad.swf:3: expected 18 fields, found 17");
  CHECK(error_of(good + "2 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1 7\n") == "bad.swf:2: expected 18 fields, found more");
  CHECK(error_of("1 0 0 sixty 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n") ==
        "bad.swf:1: field 4: expected a number, got 'sixty'");
  CHECK(error_of("1 -5 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n").rfind("bad.swf:1: field 2", 0) == 0);
  CHECK_THROWS_AS(parse_swf(good, "x.swf", 0, 10), InputError);
  CHECK_THROWS_AS(read_swf("/nonexistent/trace.swf", 1, 10), InputError);
}

TEST_CASE("swf: a header-only or empty trace is an error, not a replay of nothing") {
  const std::string why = "e.swf: no jobs: expected Standard Workload Format job lines (18 numbers each), not only `;` comments";
  CHECK_THROWS_WITH_AS(parse_swf("", "e.swf", 1, 4), why.c_str(), InputError);
  CHECK_THROWS_WITH_AS(parse_swf("; only\n;comments\n\n", "e.swf", 1, 4), why.c_str(), InputError);
  // Jobs that are all skipped (no size) are still a trace: the replay says what it skipped.
  CHECK(parse_swf("1 0 0 60 -1 -1 -1 -1 60 -1 1 1 1 1 1 1 -1 -1\n", "e.swf", 1, 4).skipped_unknown == 1);
}
