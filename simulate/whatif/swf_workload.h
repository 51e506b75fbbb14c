// The Standard Workload Format of the Parallel Workloads Archive: ';' lines are the header,
// every other non-blank line is one job of 18 whitespace-separated numbers, -1 where unknown.
// Fields used: 1 job number, 2 submit time, 4 run time, 5 allocated processors (when 8 is
// unknown), 8 requested processors, 9 requested time (the limit backfill plans with).
#pragma once

#include <string>
#include <string_view>

#include "simulate/scheduler/workload.h"

namespace slurmtopo {

// Processors become whole nodes of `cpus_per_node`; jobs needing more than `max_nodes` or
// without a size or run time are counted and skipped. Throws InputError(file, line, ...) for
// a line that is not 18 numbers.
Workload parse_swf(std::string_view text, const std::string& file, int cpus_per_node, int max_nodes);
Workload read_swf(const std::string& path, int cpus_per_node, int max_nodes);

}  // namespace slurmtopo
