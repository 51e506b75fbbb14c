// A cabling plan as a cable list in CSV: one cable per line, its two ends and, where the plan
// says, the width and speed it must train at (docs/cabling-plan.md gives the format). The
// first line that is not blank or a `#` comment is the header; it names the columns, in any
// order: a_device, a_port, b_device, b_port, and optionally a_type, b_type, width, speed.
// NVIDIA's cable validation names (A-Node Name, A-Port, A-Type, Z-Node Name, Z-Port, Z-Type)
// are read as the same columns; any other column (rack, U) is passed over.
#pragma once

#include <string>
#include <string_view>

#include "discover/cable_plan.h"

namespace slurmtopo {

// True when the first line that is not blank or a comment has a comma and is not JSON: what
// no fabric form starts with. The file then goes to parse_cable_list, which names what is
// wrong with it.
bool looks_like_cable_list(std::string_view text);

// Throws InputError (file:line) for a header without the four end columns, a line with too few
// cells, an end with no device or port, a port that names neither a switch port nor an HCA, a
// width or speed that is not one, and a cell whose quote is not closed.
CablePlan parse_cable_list(std::string_view text, const std::string& file);

// The plan as a cable list that parse_cable_list reads back to the same cables (generate
// --format plan): a comment naming what wrote it, the header, one line per cable.
std::string cable_list_text(const CablePlan& plan, const std::string& comment);

}  // namespace slurmtopo
