// The report's verdict for node_exporter's textfile collector: each check's verdict, the
// findings per kind, and the node findings per host, so an alert can name the node (the
// node-probe findings included: a GPU at x8, a rail port down, no GPUDirect). The same facts
// as the JSON's checks and findings.
#pragma once

#include <cstdint>
#include <string>

#include "report/commission.h"

namespace slurmtopo {

// slurmtopo_report_check{check} 0 pass, 1 warn, 2 fail; slurmtopo_report_findings{source,kind,
// check,severity} the things they are about; slurmtopo_node_finding{host,kind,check,severity} 1
// per host a node finding names; slurmtopo_report_timestamp_seconds `now`.
std::string report_textfile(const CommissionReport& report, int64_t now);

}  // namespace slurmtopo
