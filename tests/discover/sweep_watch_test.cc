// The stall watch around a sweep, and the stdout capture that observes libibnetdisc's progress.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/input_error.h"
#include "discover/sweep_watch.h"

using namespace slurmtopo;
using namespace std::chrono_literals;

TEST_CASE("run_watched: work that stops answering is abandoned with an InputError naming where") {
  auto progress = std::make_shared<std::atomic<long>>(0);
  auto release = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release->get_future().share();
  const auto start = std::chrono::steady_clock::now();
  try {
    run_watched([progress, released] {
      ++*progress;
      released.wait();  // a MAD that never returns
    }, progress, 400ms, nullptr, "live:mlx5_0/1", "the fabric stopped answering");
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "live:mlx5_0/1: the fabric stopped answering");
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited >= 400ms);
  CHECK(waited < 5s);
  release->set_value();  // let the abandoned thread end
}

TEST_CASE("run_watched: slow work that keeps answering runs past the stall limit") {
  auto progress = std::make_shared<std::atomic<long>>(0);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  int ticks = 0;
  run_watched([progress, finished] {
    for (int i = 0; i < 12; ++i) {
      std::this_thread::sleep_for(100ms);
      ++*progress;
    }
    *finished = true;
  }, progress, 400ms, [&] { ++ticks; }, "live", "stalled");
  CHECK(*finished);
  CHECK(ticks >= 3);  // ~200 ms apart over ~1.2 s, and once at the end
}

TEST_CASE("run_watched: the work's own error reaches the caller") {
  auto progress = std::make_shared<std::atomic<long>>(0);
  CHECK_THROWS_WITH_AS(run_watched([] { throw InputError("live:x/1", 0, "cannot sweep"); }, progress, 1s, nullptr,
                                   "live", "stalled"),
                       "live:x/1: cannot sweep", InputError);
}

TEST_CASE("StdoutLines: printf lines go to the callback, then stdout is itself again") {
  std::vector<std::string> lines;
  {
    StdoutLines capture([&](const std::string& l) { lines.push_back(l); });
    std::printf("DR path 0,1 -> new Switch {b83fd20300a00000} portnum 0\n");
    std::printf("DR path 0,1,5 -> known Channel Adapter {b83fd20300c00000} portnum 1\n");
    std::printf("no newline at the end");
    capture.restore();
    capture.restore();  // idempotent
  }
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("new Switch") != std::string::npos);
  CHECK(lines[2] == "no newline at the end");
  // fd 1 is the original again: what we write now does not reach the callback.
  std::fflush(stdout);
  CHECK(::write(STDOUT_FILENO, "", 0) == 0);
  CHECK(lines.size() == 3);
}

TEST_CASE("sweep_watch: an abort while AbortIsError lives is the clear error and exit 2, not a core dump") {
  // Armed before the fork: the child only aborts (no allocation after fork in a process with
  // threads left by the tests above).
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t child;
  {
    const AbortIsError aborted("live:ibsim0/1: the fabric stopped answering mid-sweep");
    child = fork();
    if (child == 0) {
      dup2(fds[1], 2);
      std::abort();  // as glibc does on libibnetdisc's double free
    }
  }
  REQUIRE(child > 0);
  close(fds[1]);
  std::string err;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) err.append(buf, n);
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(err == "slurmtopo: live:ibsim0/1: the fabric stopped answering mid-sweep\n");
}

TEST_CASE("sweep_watch: once AbortIsError is gone, SIGABRT has the handler it had before") {
  struct sigaction before {}, during {}, after {};
  sigaction(SIGABRT, nullptr, &before);
  {
    const AbortIsError aborted("not printed");
    sigaction(SIGABRT, nullptr, &during);
  }
  sigaction(SIGABRT, nullptr, &after);
  CHECK((during.sa_handler != before.sa_handler));
  CHECK((after.sa_handler == before.sa_handler));
}
