// Reader for `ibnetdiscover -p` (--ports): one line per port, each cable from both its ends,
// as rdma-core's dump_ports_report prints it (infiniband-diags/ibnetdiscover.c):
//   SW     1  1 0xb83fd20300a00000 4x HDR - CA     5  1 0xb83fd20300c00001 ( 'MF0;leaf' - 'dgx001 mlx5_0' )
//   CA     5  1 0xb83fd20300c00001 4x HDR - SW     1  1 0xb83fd20300a00000 ( 'dgx001 mlx5_0' - 'MF0;leaf' )
//   SW     3 41 0xb83fd20300a00020 4x SDR                                    'MF0;spine'   (no cable)
// The columns: node kind (SW, CA, RT), LID (a switch's port-0 LID, a CA port's own), port,
// port GUID, width, speed; then the far end the same way, and both descriptions.
//
// It says less than the default output: a CA is known by its port GUIDs only (so each port of a
// dual-port CA reads as a CA of its own, and FabricNode::guid_from_port is set), a switch by its
// port GUID, which is its node GUID on every switch seen (145 of 145 in the public dumps); no
// vendor, device or system image GUID; a node's port count is the highest port printed (every
// port of a switch, cabled or not, is printed).
#pragma once

#include <string>
#include <string_view>

#include "discover/fabric.h"

namespace slurmtopo {

// Parses one report. `file` names it in errors (InputError with the line number and what was
// expected). -s progress lines are skipped, umad/ibwarn diagnostics recorded in Fabric::partial.
Fabric parse_ibnetdiscover_ports_text(std::string_view text, const std::string& file);

// True when the first line that is not blank, progress or a diagnostic is a -p port line.
bool looks_like_ibnetdiscover_ports(std::string_view head);

}  // namespace slurmtopo
