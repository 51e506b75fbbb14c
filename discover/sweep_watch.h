// Keeping a fabric sweep honest about time. libibumad blocks on a MAD until its timeout, but
// under umad2sim (the simulator's libibumad) a MAD to a dead simulator blocks forever, and a
// sweep that hangs is worse than one that fails: the admin's script never learns why.
#pragma once

#include <signal.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "base/input_error.h"

namespace slurmtopo {

// The stall error. The abandoned thread is still blocked inside libibumad/libibnetdisc, and
// their exit-time cleanup makes it fail in ways that crash the process (double free seen under
// umad2sim): whoever catches this should report it and leave with std::_Exit, not exit().
class AbandonedSweep : public InputError {
 public:
  using InputError::InputError;
};

// While one lives, an abort (SIGABRT) prints "slurmtopo: <message>" and exits 2 instead of
// dumping core. An abort during a sweep is libibnetdisc failing on a fabric that went away:
// rdma-core 44's query_smp frees an SMP twice when umad2sim's write to a dead simulator fails
// ("send failed; -5", then glibc's "double free"). The admin gets a clear error and the exit
// code of bad input, and nothing is written (the sweep's result is never saved).
class AbortIsError {
 public:
  explicit AbortIsError(const std::string& message);
  ~AbortIsError();
  AbortIsError(const AbortIsError&) = delete;
  AbortIsError& operator=(const AbortIsError&) = delete;

 private:
  struct sigaction previous_ {};
};

// Runs `work` on its own thread while the calling thread watches `progress`, which the work
// bumps on every answer it gets. When `progress` stands still for `stall`, the work is left
// behind (detached: a thread blocked in a MAD cannot be cancelled) and AbandonedSweep(where, 0,
// stalled_message) is thrown. `tick` runs on the calling thread every ~200 ms (progress
// display); exceptions from `work` are rethrown here. `work` must own everything it touches
// (capture by value / shared_ptr): it may outlive this call.
void run_watched(std::function<void()> work, const std::shared_ptr<std::atomic<long>>& progress,
                 std::chrono::milliseconds stall, const std::function<void()>& tick, const std::string& where,
                 const std::string& stalled_message);

// Redirects stdout (fd 1 and the C stream) into a pipe and hands every line to `on_line` on a
// reader thread, until restore() or destruction. libibnetdisc reports each node it finds only
// by printf (ibnd_config_t::show_progress), so this is how a sweep's progress is observed.
class StdoutLines {
 public:
  explicit StdoutLines(std::function<void(const std::string&)> on_line);
  ~StdoutLines();
  StdoutLines(const StdoutLines&) = delete;
  StdoutLines& operator=(const StdoutLines&) = delete;
  void restore();  // idempotent; after it, stdout is the original again

 private:
  std::function<void(const std::string&)> on_line_;
  int saved_fd_ = -1;
  int read_fd_ = -1;
  std::thread reader_;
};

}  // namespace slurmtopo
