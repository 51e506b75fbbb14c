#include "slurm/installed_release.h"

#include <cctype>
#include <cstdio>
#include <memory>

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
    InstalledRelease out{parse_slurm_release(number.substr(0, second)), text};
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

namespace {
std::optional<InstalledRelease> run_version(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>/dev/null").c_str(), "r"), pclose);
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[256];
  while (size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  auto found = parse_scontrol_version(out);
  if (found) found->printed = command + ": " + found->printed;
  return found;
}
}  // namespace

std::optional<InstalledRelease> installed_slurm_release() {
  // scontrol needs a configuration source even for --version (22.05 without slurm.conf or DNS
  // SRV records exits 1); the daemons print theirs without one.
  for (const char* command : {"scontrol --version", "slurmctld -V", "slurmd -V"})
    if (auto found = run_version(command)) return found;
  return std::nullopt;
}

TargetRelease target_release(const std::string& requested) {
  if (!requested.empty()) return {parse_slurm_release(requested), "--slurm-version " + requested};
  if (auto installed = installed_slurm_release())
    return {installed->release, installed->printed};
  return {SlurmRelease{22, 5}, "no Slurm installed here, so 22.05"};
}

}  // namespace slurmtopo
