#include "slurm/installed_release.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

extern char** environ;

namespace slurmtopo {

std::optional<InstalledRelease> parse_scontrol_version(std::string_view printed) {
  std::string text(printed);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  const size_t space = text.rfind(' ');
  if (space == std::string::npos || text.compare(0, 5, "slurm") != 0) return std::nullopt;
  const std::string number = text.substr(space + 1);  // 22.05.8
  const size_t first = number.find('.');
  if (first == std::string::npos) return std::nullopt;
  const size_t second = number.find('.', first + 1);
  try {
    InstalledRelease out{parse_release_number(number.substr(0, second)), text};
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

namespace {

// The first executable `name` in `search_path`, as execvp would find it; "" if none.
std::string find_program(std::string_view search_path, const std::string& name) {
  size_t start = 0;
  while (start <= search_path.size()) {
    size_t colon = search_path.find(':', start);
    if (colon == std::string_view::npos) colon = search_path.size();
    std::string dir(search_path.substr(start, colon - start));
    if (dir.empty()) dir = ".";
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0) return path;
    start = colon + 1;
  }
  return "";
}

// Starts `program argument` with stdout on a pipe, stdin and stderr on /dev/null, and reads
// what it prints: one fork and exec, no shell (a `sh -c` per probe cost ~10 ms a run).
std::optional<std::string> run_program(const std::string& program, const char* argument) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv = {const_cast<char*>(program.c_str()), const_cast<char*>(argument), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }
  std::string out;
  char buf[256];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0 && out.size() < 4096) out.append(buf, static_cast<size_t>(n));
    else if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return out;
}

}  // namespace

std::optional<InstalledRelease> installed_slurm_release(std::string_view search_path) {
  const std::pair<const char*, const char*> probes[] = {
      {"scontrol", "--version"}, {"slurmctld", "-V"}, {"slurmd", "-V"}};
  for (const auto& [name, flag] : probes) {
    const std::string program = find_program(search_path, name);
    if (program.empty()) continue;
    const auto out = run_program(program, flag);
    if (!out) continue;
    if (auto found = parse_scontrol_version(*out)) {
      found->printed = std::string(name) + " " + flag + ": " + found->printed;
      return found;
    }
  }
  return std::nullopt;
}

TargetRelease target_release(const std::string& requested) {
  if (!requested.empty()) return requested_release(requested);
  const char* path = std::getenv("PATH");
  if (auto installed = installed_slurm_release(path ? path : "/usr/bin:/bin")) {
    require_known(installed->release, installed->printed);
    return {installed->release, installed->printed, false};
  }
  return TargetRelease{};
}

}  // namespace slurmtopo
