// Reader for ibdiagnet's PM counters file (ibdiagnet2.pm): one block per port, a header line
// "Port=N Lid=0x.. GUID=0x.. Device=.. Port Name=.." between two dashed lines, then
// "name=value" lines in hex or NA. Where a counter has an "_extended" copy (64 bits), that
// copy wins: the 32-bit one stops at all ones long before.
#pragma once

#include <string>
#include <string_view>

#include "discover/port_counters.h"

namespace slurmtopo {

// `file` names it in errors (InputError with the line number).
CounterReadings parse_ibdiagnet_pm(std::string_view text, const std::string& file);

// True when the first lines look like an ibdiagnet2.pm file.
bool looks_like_ibdiagnet_pm(std::string_view head);

}  // namespace slurmtopo
