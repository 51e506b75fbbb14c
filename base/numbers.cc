#include "base/numbers.h"

#include <charconv>

#include "base/input_error.h"

namespace slurmtopo {

uint64_t parse_whole_number(const std::string& option, const std::string& text, uint64_t min) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18 ||
      std::stoull(text) < min)
    throw InputError(option, 0, "expected a whole number of at least " + std::to_string(min) + ", got '" + text + "'");
  return std::stoull(text);
}

std::optional<uint64_t> parse_uint64(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2), base = 16;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return v;
}

bool parse_long(std::string_view s, long& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace slurmtopo
