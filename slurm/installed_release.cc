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

std::optional<InstalledRelease> installed_slurm_release() {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen("scontrol --version 2>/dev/null", "r"), pclose);
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[256];
  while (size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  return parse_scontrol_version(out);
}

TargetRelease target_release(const std::string& requested) {
  if (!requested.empty()) return {parse_slurm_release(requested), "--slurm-version " + requested};
  if (auto installed = installed_slurm_release())
    return {installed->release, "scontrol --version: " + installed->printed};
  return {SlurmRelease{22, 5}, "no scontrol found, so 22.05"};
}

}  // namespace slurmtopo
