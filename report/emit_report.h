// What `slurmtopo emit topology|gres|nodes|nccl-topo` say: the file on stdout (unless written), a diff,
// and on stderr the warnings, the checks' findings with file:line, and what was written or
// why nothing was.
#pragma once

#include <ostream>

#include "emit/gres_emit.h"
#include "emit/nccl_topo_emit.h"
#include "emit/topology_emit.h"

namespace slurmtopo {

void report_emit_topology(const EmitTopologyResult& result, std::ostream& out, std::ostream& err);
void report_emit_gres(const EmitGresResult& result, std::ostream& out, std::ostream& err);
// Per file: which hosts use it (NCCL_TOPO_FILE=path), and whether it was written or unchanged.
void report_emit_nccl_topo(const EmitNcclTopoResult& result, std::ostream& out, std::ostream& err);

}  // namespace slurmtopo
