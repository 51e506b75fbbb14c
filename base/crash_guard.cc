#include "base/crash_guard.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

ChildOutcome run_in_child(const std::function<int()>& attempt) {
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
  ChildOutcome outcome;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (outcome.stderr_text.size() < 65536) outcome.stderr_text.append(buf, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) system_error("waitpid");
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  else outcome.exit_code = WEXITSTATUS(status);
  return outcome;
}

}  // namespace slurmtopo
