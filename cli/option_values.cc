#include "cli/option_values.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

#include "base/base.h"

namespace slurmtopo::cli {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A number as a person writes it: 16, 1.5 (never 16.000000).
std::string shown(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::string or_list(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

CLI::Validator whole_number(long long min, long long max) {
  const std::string range = max == std::numeric_limits<int>::max()
                                ? "of at least " + std::to_string(min)
                                : "from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& value) {
        long long v = 0;
        const char* end = value.data() + value.size();
        const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::from_chars(value.data(), end, v).ptr != end || v < min || v > max)
          return "expected a whole number " + range + ", got '" + value + "'";
        return std::string();
      },
      max == std::numeric_limits<int>::max() ? ">=" + std::to_string(min)
                                             : std::to_string(min) + ".." + std::to_string(max));
}

CLI::Validator number_from(double min, double max) {
  const std::string range = "from " + shown(min) + " to " + shown(max);
  return CLI::Validator(
      [min, max, range](std::string& value) {
        double v = 0;
        const char* end = value.data() + value.size();
        const auto [ptr, ec] = std::from_chars(value.data(), end, v);
        if (value.empty() || ptr != end || ec != std::errc() || !std::isfinite(v) || v < min || v > max)
          return "expected a number " + range + ", got '" + value + "'";
        return std::string();
      },
      shown(min) + ".." + shown(max));
}

CLI::Validator one_of(const std::vector<std::string>& words, bool any_case) {
  return CLI::Validator(
      [words, any_case](std::string& value) {
        for (const auto& w : words)
          if (w == value || (any_case && lower(w) == lower(value))) {
            value = w;
            return std::string();
          }
        const std::string near = nearest_word(value, words);
        return "expected " + or_list(words) + (any_case ? " (any case)" : "") + ", got '" + value + "'" +
               (near.empty() ? "" : "; did you mean " + near + "?");
      },
      "{" + [&] {
        std::string list;
        for (const auto& w : words) list += (list.empty() ? "" : ",") + w;
        return list;
      }() + "}");
}

}  // namespace slurmtopo::cli
