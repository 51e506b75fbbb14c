#include "discover/meminfo.h"

#include <charconv>

#include "base/files.h"
#include "base/lines.h"

namespace slurmtopo {

std::optional<uint64_t> memtotal_mib(std::string_view meminfo) {
  LineReader lines(meminfo);
  std::string_view line;
  while (lines.next(line)) {
    if (line.substr(0, 9) != "MemTotal:") continue;
    std::string_view rest = line.substr(9);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    uint64_t kb = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kb);
    if (ec != std::errc() || std::string_view(end, rest.data() + rest.size()).find("kB") == std::string_view::npos)
      return std::nullopt;
    return kb / 1024;
  }
  return std::nullopt;
}

std::optional<uint64_t> local_memtotal_mib() {
  std::string text;
  if (!read_file_if_exists("/proc/meminfo", text)) return std::nullopt;
  return memtotal_mib(text);
}

}  // namespace slurmtopo
