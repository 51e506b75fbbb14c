// The workers report over a pipe each: a record when an attempt starts and one when it ends
// (its code, output and stderr), so when a child dies the parent knows which attempt killed
// it. They take attempts from a counter in memory shared with the parent, so a slow file
// holds up no other and a restarted child simply goes on with the next one. A child's stderr
// is a memory file the parent also holds: the child empties it after each attempt, so after
// a crash it holds what the fatal attempt wrote.
#include "base/crash_guard.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace slurmtopo {
namespace {

constexpr size_t kStderrKept = 65536;

[[noreturn]] void system_error(const char* what) {
  throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

// In a fresh child: no core file, and a crash must end the child as a signal the parent sees,
// also under a sanitizer (whose own handler would print a report and exit with a code).
// stdout goes nowhere: a long-lived child that filled a stdio buffer would flush it, and the
// parent's unflushed output with it, onto the caller's stdout.
void become_child(int stderr_fd) {
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
  if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDOUT_FILENO);
  ::dup2(stderr_fd, STDERR_FILENO);
}

int attempt_code(const std::function<int()>& attempt) {
  try {
    return attempt();
  } catch (...) {
    return 1;
  }
}

void set_outcome_status(ChildOutcome& outcome, int status) {
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  else outcome.exit_code = WEXITSTATUS(status);
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) system_error("waitpid");
  return status;
}

}  // namespace

ChildOutcome run_in_child(const std::function<int()>& attempt) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) system_error("pipe");
  const pid_t pid = ::fork();
  if (pid < 0) system_error("fork");
  if (pid == 0) {
    become_child(pipe_fds[1]);
    ::_exit(attempt_code(attempt));
  }
  ::close(pipe_fds[1]);
  ChildOutcome outcome;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (outcome.stderr_text.size() < kStderrKept) outcome.stderr_text.append(buf, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  set_outcome_status(outcome, wait_for(pid));
  return outcome;
}

namespace {

// One record on a worker's pipe, followed by `output_size` + `stderr_size` bytes.
struct Record {
  uint64_t index;
  uint32_t finished;  // 0: attempt `index` starts; 1: it ended with `code`
  int32_t code;
  uint64_t output_size;
  uint64_t stderr_size;
};

// What the memory file behind `fd` holds (at most kStderrKept bytes).
std::string file_text(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size <= 0) return "";
  std::string text(std::min<size_t>(static_cast<size_t>(st.st_size), kStderrKept), '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return text;
}

// Whole writes or the child ends: a parent that stopped reading has no use for the rest.
void write_record(int fd, const Record& header, const std::string& output, const std::string& err) {
  std::string bytes(reinterpret_cast<const char*>(&header), sizeof header);
  bytes += output;
  bytes += err;
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void work(std::atomic<size_t>& next, size_t count,
                       const std::function<int(size_t, std::string&)>& attempt, int results) {
  for (size_t i; (i = next.fetch_add(1)) < count;) {
    write_record(results, {i, 0, 0, 0, 0}, "", "");
    std::string output;
    const int code = attempt_code([&] { return attempt(i, output); });
    std::string err = file_text(STDERR_FILENO);
    if (::ftruncate(STDERR_FILENO, 0) != 0 || ::lseek(STDERR_FILENO, 0, SEEK_SET) != 0) ::_exit(3);
    write_record(results, {i, 1, code, output.size(), err.size()}, output, err);
  }
  ::_exit(0);
}

struct Worker {
  pid_t pid = -1;
  int results = -1;              // read end of its pipe
  int stderr_file = -1;          // the memory file that is its stderr
  std::string received;          // bytes of a record not complete yet
  std::optional<size_t> current; // the attempt it started and has not finished
};

class Workers {
 public:
  Workers(size_t count, const std::function<int(size_t, std::string&)>& attempt,
          const std::function<void(size_t, ChildOutcome)>& take)
      : count_(count), attempt_(attempt), take_(take) {
    static_assert(std::atomic<size_t>::is_always_lock_free, "the counter is shared between processes");
    void* shared = ::mmap(nullptr, sizeof(std::atomic<size_t>), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) system_error("mmap");
    next_ = new (shared) std::atomic<size_t>(0);
  }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  ~Workers() {
    for (Worker& w : workers_) {
      if (w.pid > 0) {
        ::kill(w.pid, SIGKILL);
        int status;
        while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
      close_fds(w);
    }
    ::munmap(next_, sizeof(std::atomic<size_t>));
  }

  void run(unsigned parallel) {
    workers_.resize(std::min<size_t>(std::max(1u, parallel), count_));
    for (Worker& w : workers_) start(w);
    std::vector<pollfd> fds;
    std::vector<Worker*> polled;
    for (;;) {
      fds.clear();
      polled.clear();
      for (Worker& w : workers_)
        if (w.pid > 0) {
          fds.push_back({w.results, POLLIN, 0});
          polled.push_back(&w);
        }
      if (fds.empty()) return;
      if (::poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        system_error("poll");
      }
      for (size_t k = 0; k < fds.size(); ++k)
        if (fds[k].revents) receive(*polled[k]);
    }
  }

 private:
  void start(Worker& w) {
    w.stderr_file = ::memfd_create("slurmtopo-child-stderr", MFD_CLOEXEC);
    if (w.stderr_file < 0) system_error("memfd_create");
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) system_error("pipe");
    const pid_t pid = ::fork();
    if (pid < 0) system_error("fork");
    if (pid == 0) {
      become_child(w.stderr_file);
      work(*next_, count_, attempt_, pipe_fds[1]);
    }
    ::close(pipe_fds[1]);
    w.pid = pid;
    w.results = pipe_fds[0];
  }

  static void close_fds(Worker& w) {
    if (w.results >= 0) ::close(w.results);
    if (w.stderr_file >= 0) ::close(w.stderr_file);
    w.results = w.stderr_file = -1;
  }

  void receive(Worker& w) {
    char buf[65536];
    const ssize_t n = ::read(w.results, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) return;
      system_error("read");
    }
    if (n == 0) return ended(w);
    w.received.append(buf, static_cast<size_t>(n));
    size_t at = 0;
    for (Record r; w.received.size() - at >= sizeof r;) {
      std::memcpy(&r, w.received.data() + at, sizeof r);
      const size_t size = sizeof r + r.output_size + r.stderr_size;
      if (w.received.size() - at < size) break;
      if (!r.finished) {
        w.current = r.index;
      } else {
        ChildOutcome outcome;
        outcome.exit_code = r.code;
        outcome.output = w.received.substr(at + sizeof r, r.output_size);
        outcome.stderr_text = w.received.substr(at + sizeof r + r.output_size, r.stderr_size);
        w.current.reset();
        take_(r.index, std::move(outcome));
      }
      at += size;
    }
    w.received.erase(0, at);
  }

  // The pipe's end: the child exited after the last attempt, or an attempt killed it.
  void ended(Worker& w) {
    const int status = wait_for(w.pid);
    w.pid = -1;
    const std::optional<size_t> fatal = w.current;
    ChildOutcome outcome;
    set_outcome_status(outcome, status);
    outcome.stderr_text = file_text(w.stderr_file);
    close_fds(w);
    w.received.clear();
    w.current.reset();
    if (!fatal) {
      if (outcome.signal || outcome.exit_code != 0)
        throw std::runtime_error("a worker child ended between two attempts (" +
                                 (outcome.signal ? std::string(strsignal(*outcome.signal))
                                                 : "exit code " + std::to_string(outcome.exit_code)) + ")");
      return;
    }
    take_(*fatal, std::move(outcome));
    if (next_->load() < count_) start(w);
  }

  size_t count_;
  const std::function<int(size_t, std::string&)>& attempt_;
  const std::function<void(size_t, ChildOutcome)>& take_;
  std::atomic<size_t>* next_ = nullptr;
  std::vector<Worker> workers_;
};

}  // namespace

void run_in_workers(size_t count, const std::function<int(size_t, std::string&)>& attempt,
                    const std::function<void(size_t, ChildOutcome)>& take, unsigned parallel) {
  if (count == 0) return;
  Workers workers(count, attempt, take);
  workers.run(parallel);
}

}  // namespace slurmtopo
