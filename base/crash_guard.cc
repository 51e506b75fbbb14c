#include "base/crash_guard.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace slurmtopo {

std::optional<int> signal_killing(const std::function<void()>& attempt) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // An expected crash should not leave a core file per bad export.
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    try {
      attempt();
    } catch (...) {
    }
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  if (WIFSIGNALED(status)) return WTERMSIG(status);
  return std::nullopt;
}

}  // namespace slurmtopo
