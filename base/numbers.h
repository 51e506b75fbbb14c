// Whole numbers as a user types them on a command line or in a list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace slurmtopo {

// Digits only, at least `min`. Throws InputError(option, 0, "expected a whole number of at
// least MIN, got 'TEXT'").
uint64_t parse_whole_number(const std::string& option, const std::string& text, uint64_t min);

// The whole of `text` as an unsigned 64-bit number, decimal or "0x" hex (how diagnostic tools
// print counters); nullopt for anything else, an overflow included.
std::optional<uint64_t> parse_uint64(std::string_view text);

// The whole of `s` as a decimal long, a leading '-' allowed; false for anything else, an
// overflow or an empty `s` included (`out` is then unspecified).
bool parse_long(std::string_view s, long& out);

}  // namespace slurmtopo
