#include "base/crash_guard.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace slurmtopo {
namespace {

[[noreturn]] void system_error(const char* what) {
  throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

namespace {

struct Child {
  pid_t pid;
  int stderr_fd;
};

Child start_child(const std::function<int()>& attempt) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) system_error("pipe");
  const pid_t pid = ::fork();
  if (pid < 0) system_error("fork");
  if (pid == 0) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // The crash must end the child as a signal the parent sees, also under a sanitizer (whose
    // own handler would print a report and exit with a code).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    int code = 1;
    try {
      code = attempt();
    } catch (...) {
    }
    ::_exit(code);
  }
  ::close(pipe_fds[1]);
  return {pid, pipe_fds[0]};
}

ChildOutcome finish_child(const Child& child) {
  ChildOutcome outcome;
  char buf[4096];
  for (ssize_t n; (n = ::read(child.stderr_fd, buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (outcome.stderr_text.size() < 65536) outcome.stderr_text.append(buf, static_cast<size_t>(n));
  }
  ::close(child.stderr_fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0)
    if (errno != EINTR) system_error("waitpid");
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  else outcome.exit_code = WEXITSTATUS(status);
  return outcome;
}

}  // namespace

ChildOutcome run_in_child(const std::function<int()>& attempt) { return finish_child(start_child(attempt)); }

std::vector<ChildOutcome> run_in_children(const std::vector<std::function<int()>>& attempts, unsigned parallel) {
  std::vector<ChildOutcome> outcomes(attempts.size());
  const size_t batch = std::max(1u, parallel);
  for (size_t first = 0; first < attempts.size(); first += batch) {
    std::vector<Child> running;
    for (size_t i = first; i < std::min(attempts.size(), first + batch); ++i) running.push_back(start_child(attempts[i]));
    for (size_t k = 0; k < running.size(); ++k) outcomes[first + k] = finish_child(running[k]);
  }
  return outcomes;
}

}  // namespace slurmtopo
