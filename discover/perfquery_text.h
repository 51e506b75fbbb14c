// Reader for perfquery's output (infiniband-diags 44): one port, -a (a switch's ports summed,
// port 255), -l (one block per port), -x (PortCountersExtended), or several runs saved into one
// file. perfquery names a port by LID and port number only, so each PortCounters has a LID and
// no GUID; graph/link_health.h finds the port by its LID in the fabric.
#pragma once

#include <string>
#include <string_view>

#include "discover/port_counters.h"

namespace slurmtopo {

// `file` names it in errors (InputError with the line number).
CounterReadings parse_perfquery_text(std::string_view text, const std::string& file);

// True when the first lines look like perfquery output.
bool looks_like_perfquery(std::string_view head);

}  // namespace slurmtopo
