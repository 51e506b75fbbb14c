#include "emit/slurm_release.h"

#include <charconv>

#include "base/input_error.h"

namespace slurmtopo {

SlurmRelease parse_slurm_release(std::string_view text) {
  SlurmRelease v;
  auto dot = text.find('.');
  auto number = [](std::string_view s, int& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty() && s.size() <= 2;
  };
  if (dot == std::string_view::npos || !number(text.substr(0, dot), v.year) ||
      !number(text.substr(dot + 1), v.month) || v.month < 1 || v.month > 12 || v.year < 17)
    throw InputError("--slurm-version", 0,
                     "expected a Slurm release as YY.MM (e.g. 22.05, 24.11, 25.11), not \"" + std::string(text) + "\"");
  return v;
}

std::string to_string(SlurmRelease v) {
  return std::to_string(v.year) + (v.month < 10 ? ".0" : ".") + std::to_string(v.month);
}

}  // namespace slurmtopo
