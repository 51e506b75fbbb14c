#include "base/regex.h"

#include <cctype>

namespace slurmtopo {
namespace {

constexpr size_t kMaxDigits = 5;
constexpr size_t kMaxLength = 1024;

class PatternRefused : public std::regex_error {
 public:
  PatternRefused(std::regex_constants::error_type code, std::string message)
      : std::regex_error(code), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The end of the digit run at `i`; throws when it is too long to be a number libstdc++ reads safely.
size_t digits_end(const std::string& text, size_t i, std::regex_constants::error_type code, const char* what) {
  size_t end = i;
  while (end < text.size() && digit(text[end])) ++end;
  if (end - i > kMaxDigits) {
    const std::string shown = end - i > 12 ? text.substr(i, 12) + "..." : text.substr(i, end - i);
    throw PatternRefused(code, std::string(what) + " `" + shown + "` at character " + std::to_string(i + 1) +
                                   " has " + std::to_string(end - i) + " digits; at most " +
                                   std::to_string(kMaxDigits));
  }
  return end;
}

}  // namespace

std::regex compile_regex(const std::string& text) {
  // libstdc++ compiles one level of recursion per term and per group: a pattern of some
  // 50,000 characters overflows an 8 MiB stack.
  if (text.size() > kMaxLength)
    throw PatternRefused(std::regex_constants::error_complexity,
                        "a pattern of " + std::to_string(text.size()) + " characters; at most " +
                            std::to_string(kMaxLength));
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      if (digit(text[i + 1]))
        i = digits_end(text, i + 1, std::regex_constants::error_backref, "back reference") - 1;
      else
        ++i;  // an escaped character is never the start of a count
    } else if (text[i] == '{') {
      size_t end = digits_end(text, i + 1, std::regex_constants::error_badbrace, "repeat count");
      if (end < text.size() && text[end] == ',')
        end = digits_end(text, end + 1, std::regex_constants::error_badbrace, "repeat count");
      i = end - 1;
    }
  }
  return std::regex(text);
}

}  // namespace slurmtopo
