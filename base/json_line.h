// The line a JSON value sits on, for errors about a value the DOM has already accepted as
// JSON but that the schema rejects (nlohmann's DOM keeps no positions).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace slurmtopo {

// Line (1-based) of the value or key that `where` names in `text`; 0 if not found.
// Costs one SAX pass, so call it only on the error path.
int json_line_of(std::string_view text, const nlohmann::json::json_pointer& where);

// Line of byte `offset` (nlohmann's parse_error::byte is 1-based, pass byte - 1).
int line_at_offset(std::string_view text, size_t offset);

}  // namespace slurmtopo
