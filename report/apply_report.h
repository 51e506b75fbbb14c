// What `slurmtopo apply` says: the change and each step on stdout (or one JSON object with
// --json), why it refused or rolled back on stderr; and, for monitoring, a node_exporter
// textfile (Prometheus text format) with the fabric's anomalies and the apply's result.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "emit/apply_plan.h"

namespace slurmtopo {

void report_apply(const ApplyResult& result, bool json, std::ostream& out, std::ostream& err);

// The textfile's content; `now` is the Unix time of this apply.
std::string apply_textfile(const ApplyResult& result, int64_t now);

// Writes DIR/slurmtopo.prom atomically (node_exporter must never read half a file).
void write_apply_textfile(const std::string& dir, const ApplyResult& result, int64_t now);

}  // namespace slurmtopo
