#include "slurm/ranges.h"

#include <algorithm>
#include <string_view>

#include "base/numbers.h"

namespace slurmtopo {

std::string format_ranges(const std::vector<int>& values) {
  std::string out;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(values[i]);
    if (j > i) out += '-' + std::to_string(values[j]);
    i = j + 1;
  }
  return out;
}

bool parse_ranges(const std::string& s, std::vector<int>& out) {
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t dash = item.find('-');
    long lo = 0, hi = 0;
    if (!parse_long(item.substr(0, dash), lo)) return false;
    hi = lo;
    if (dash != std::string::npos && !parse_long(item.substr(dash + 1), hi)) return false;
    if (lo < 0 || hi < lo || hi - lo > 1 << 20) return false;
    for (long v = lo; v <= hi; ++v) out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return true;
}

}  // namespace slurmtopo
