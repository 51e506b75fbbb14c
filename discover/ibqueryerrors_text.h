// Reader for ibqueryerrors' output (infiniband-diags 44): the default form, --details, --data,
// -r (its "Link info:" lines) and -c, with or without a threshold file. Each port it printed
// becomes a PortCounters with the counters printed on its line (the others were below the
// thresholds in its "## Thresholds:" line, 0 by default). "port ALL" lines, a switch's ports
// summed, are kept as PortCounters::kAllPorts: ibqueryerrors reads a switch's ports one by one
// only when the sum is over a threshold, so every port that matters has its own line too.
#pragma once

#include <string>
#include <string_view>

#include "discover/port_counters.h"

namespace slurmtopo {

// `file` names it in errors (InputError with the line number).
CounterReadings parse_ibqueryerrors_text(std::string_view text, const std::string& file);

// True when the first lines look like ibqueryerrors output.
bool looks_like_ibqueryerrors(std::string_view head);

}  // namespace slurmtopo
