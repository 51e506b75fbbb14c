// Whole numbers as a user types them on a command line or in a list.
#pragma once

#include <cstdint>
#include <string>

namespace slurmtopo {

// Digits only, at least `min`. Throws InputError(option, 0, "expected a whole number of at
// least MIN, got 'TEXT'").
uint64_t parse_whole_number(const std::string& option, const std::string& text, uint64_t min);

}  // namespace slurmtopo
