#include "discover/sweep_watch.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>

#include "base/input_error.h"

namespace slurmtopo {

namespace {
struct WorkState {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
};
}  // namespace

namespace {
// A signal handler reaches only static storage, hence one message buffer (one sweep at a time).
char abort_message[1024];
size_t abort_message_length = 0;

extern "C" void abort_as_error(int) {
  (void)!write(2, abort_message, abort_message_length);
  _exit(2);
}
}  // namespace

AbortIsError::AbortIsError(const std::string& message) {
  const std::string text = "slurmtopo: " + message + "\n";
  abort_message_length = std::min(text.size(), sizeof abort_message);
  std::memcpy(abort_message, text.data(), abort_message_length);
  struct sigaction action {};
  action.sa_handler = abort_as_error;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous_);
}

AbortIsError::~AbortIsError() { sigaction(SIGABRT, &previous_, nullptr); }

void run_watched(std::function<void()> work, const std::shared_ptr<std::atomic<long>>& progress,
                 std::chrono::milliseconds stall, const std::function<void()>& tick, const std::string& where,
                 const std::string& stalled_message) {
  using Clock = std::chrono::steady_clock;
  auto state = std::make_shared<WorkState>();
  std::thread worker([state, work = std::move(work)] {
    std::exception_ptr error;
    try {
      work();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(state->mutex);
    state->done = true;
    state->error = error;
    state->cv.notify_all();
  });
  long seen = progress->load();
  Clock::time_point last_move = Clock::now();
  std::unique_lock lock(state->mutex);
  while (!state->done) {
    state->cv.wait_for(lock, std::chrono::milliseconds(200));
    if (state->done) break;
    lock.unlock();
    if (tick) tick();
    const long now = progress->load();
    if (now != seen) {
      seen = now;
      last_move = Clock::now();
    } else if (Clock::now() - last_move >= stall) {
      worker.detach();
      throw AbandonedSweep(where, 0, stalled_message);
    }
    lock.lock();
  }
  lock.unlock();
  worker.join();
  if (tick) tick();
  if (state->error) std::rethrow_exception(state->error);
}

StdoutLines::StdoutLines(std::function<void(const std::string&)> on_line) : on_line_(std::move(on_line)) {
  int fds[2];
  std::fflush(stdout);
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  saved_fd_ = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  if (saved_fd_ < 0 || ::dup2(fds[1], STDOUT_FILENO) < 0) {
    int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    if (saved_fd_ >= 0) ::close(saved_fd_);
    throw std::system_error(e, std::generic_category(), "redirecting stdout");
  }
  ::close(fds[1]);
  read_fd_ = fds[0];
  // Line by line, so each node reaches us when it is found rather than per 4 KiB.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  reader_ = std::thread([this] {
    std::string pending;
    char buf[4096];
    for (;;) {
      ssize_t n = ::read(read_fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      pending.append(buf, static_cast<size_t>(n));
      size_t start = 0;
      for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
        on_line_(pending.substr(start, nl - start));
      pending.erase(0, start);
    }
    if (!pending.empty()) on_line_(pending);
  });
}

void StdoutLines::restore() {
  if (saved_fd_ < 0) return;
  std::fflush(stdout);
  // Pointing fd 1 back drops the pipe's last writer: the reader sees EOF and ends.
  ::dup2(saved_fd_, STDOUT_FILENO);
  ::close(saved_fd_);
  saved_fd_ = -1;
  reader_.join();
  ::close(read_fd_);
  read_fd_ = -1;
}

StdoutLines::~StdoutLines() { restore(); }

}  // namespace slurmtopo
