// Child processes that keep a run alive when a library crashes on one input: one child per
// attempt (run_in_child), or a few long-lived children for many attempts (run_in_workers).
#include "base/crash_guard.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace slurmtopo;

namespace {

std::vector<ChildOutcome> run_all(size_t count, const std::function<int(size_t, std::string&)>& attempt,
                                  unsigned parallel) {
  std::vector<ChildOutcome> outcomes(count);
  std::vector<int> taken(count, 0);
  run_in_workers(count, attempt, [&](size_t i, ChildOutcome o) {
    ++taken[i];
    outcomes[i] = std::move(o);
  }, parallel);
  CHECK(taken == std::vector<int>(count, 1));  // every attempt ends exactly once
  return outcomes;
}

}  // namespace

TEST_CASE("run_in_child: the code returned, the signal that killed it, its stderr") {
  CHECK(run_in_child([] { return 7; }).exit_code == 7);
  CHECK(run_in_child([]() -> int { throw std::runtime_error("x"); }).exit_code == 1);
  const ChildOutcome crashed = run_in_child([] {
    std::fputs("about to fail\n", stderr);
    std::raise(SIGSEGV);
    return 0;
  });
  REQUIRE(crashed.signal);
  CHECK(*crashed.signal == SIGSEGV);
  CHECK(crashed.stderr_text == "about to fail\n");
}

TEST_CASE("run_in_workers: every attempt's code, output and stderr, by index, from at most `parallel` children") {
  const std::vector<ChildOutcome> outcomes = run_all(50, [](size_t i, std::string& out) {
    out = std::to_string(i * i) + " " + std::to_string(::getpid());
    std::fprintf(stderr, "attempt %zu\n", i);
    return static_cast<int>(i % 3);
  }, 2);
  std::set<std::string> pids;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    CHECK_FALSE(outcomes[i].signal);
    CHECK(outcomes[i].exit_code == static_cast<int>(i % 3));
    const std::string& out = outcomes[i].output;
    CHECK(out.substr(0, out.find(' ')) == std::to_string(i * i));
    CHECK(outcomes[i].stderr_text == "attempt " + std::to_string(i) + "\n");  // its own lines only
    pids.insert(out.substr(out.find(' ') + 1));
  }
  CHECK(pids.size() <= 2);  // not a fork per attempt
  CHECK(pids.count(std::to_string(::getpid())) == 0);
}

TEST_CASE("run_in_workers: a crash in the middle costs that attempt only, and every crash is reported") {
  for (unsigned parallel : {1u, 2u, 3u}) {
    CAPTURE(parallel);
    const std::vector<ChildOutcome> outcomes = run_all(12, [](size_t i, std::string& out) {
      out = "done " + std::to_string(i);
      if (i == 3 || i == 4 || i == 9) {
        std::fprintf(stderr, "crashing on %zu\n", i);
        std::raise(i == 9 ? SIGABRT : SIGSEGV);
      }
      if (i == 6) throw std::runtime_error("refused");
      return 0;
    }, parallel);
    for (size_t i = 0; i < outcomes.size(); ++i) {
      CAPTURE(i);
      if (i == 3 || i == 4 || i == 9) {
        REQUIRE(outcomes[i].signal);
        CHECK(*outcomes[i].signal == (i == 9 ? SIGABRT : SIGSEGV));
        CHECK(outcomes[i].stderr_text == "crashing on " + std::to_string(i) + "\n");
        CHECK(outcomes[i].output.empty());  // what it had not handed back is lost with it
      } else if (i == 6) {
        CHECK_FALSE(outcomes[i].signal);
        CHECK(outcomes[i].exit_code == 1);  // an exception, as in run_in_child
      } else {
        CHECK_FALSE(outcomes[i].signal);
        CHECK(outcomes[i].exit_code == 0);
        CHECK(outcomes[i].output == "done " + std::to_string(i));
        CHECK(outcomes[i].stderr_text.empty());
      }
    }
  }
}

TEST_CASE("run_in_workers: the last attempt crashing, every attempt crashing, none at all") {
  std::vector<ChildOutcome> last = run_all(4, [](size_t i, std::string&) {
    if (i == 3) std::raise(SIGSEGV);
    return 0;
  }, 2);
  CHECK(last[3].signal);
  CHECK_FALSE(last[2].signal);
  for (const ChildOutcome& o : run_all(5, [](size_t, std::string&) { return std::raise(SIGSEGV); }, 2))
    CHECK(o.signal);
  run_in_workers(0, [](size_t, std::string&) { return 0; }, [](size_t, ChildOutcome) { FAIL("no attempt"); }, 2);
}

TEST_CASE("run_in_workers: an exception in the parent's `take` ends the children and propagates") {
  // Children blocked on a full pipe would hang the run if they were left behind.
  CHECK_THROWS_WITH_AS(run_in_workers(
                           1000, [](size_t, std::string& out) { out.assign(100000, 'x'); return 0; },
                           [](size_t, ChildOutcome) { throw std::invalid_argument("stop"); }, 2),
                       "stop", std::invalid_argument);
  errno = 0;
  CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);  // no child left, not even a zombie
  CHECK(errno == ECHILD);
}
