#include "base/numbers.h"

#include "base/input_error.h"

namespace slurmtopo {

uint64_t parse_whole_number(const std::string& option, const std::string& text, uint64_t min) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18 ||
      std::stoull(text) < min)
    throw InputError(option, 0, "expected a whole number of at least " + std::to_string(min) + ", got '" + text + "'");
  return std::stoull(text);
}

}  // namespace slurmtopo
