// `--counters FILE`: the port counters admins keep, recognised by content: ibqueryerrors
// (discover/ibqueryerrors_text.h), perfquery (perfquery_text.h) and ibdiagnet's PM file
// (ibdiagnet_pm.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "discover/port_counters.h"

namespace slurmtopo {

// One of the text forms from its bytes (what load_counters_file reads, and
// fuzz/discover/counters_text_fuzzer feeds). `file` names it in errors.
CounterReadings parse_counters_text(std::string_view text, const std::string& file);

// InputError naming the file (and line) when it is none of the forms or cannot be read.
CounterReadings load_counters_file(const std::string& path);

}  // namespace slurmtopo
