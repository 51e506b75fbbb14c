// A cabling plan as an ibdm topology file: what `ibdiagnet -t`, `ibdmchk -t` and `ibtopodiff
// -t` compare a fabric with, and `ibdiagnet -w` writes. One block per system:
//
//   MTS2400 SL1-1
//      P1 -4x-5G-> MT23108 H-1 P1
//      P13 -4x-5G-> MTS2400 SL2-1 P1
//
// (ibdm/doc/ibdm-topo-file.pod). A blank line ends a block; `#` lines are comments. A cable
// listed from both of its systems is one cable.
//
// The file names systems by type; which types are switches is in ibdm's IBNL files, which
// slurmtopo does not read. A system is a host (its ports HCA ports) when its type starts with
// HCA (ibdiagnet -w), or its ports are named after an HCA (mlx5_0/P1), or it has at most two
// ports and every system it reaches is a switch; any other system is a switch. A switch's port
// is P<n>, its port n; a host's P<n> is port n of its one HCA, U<n>/P<k> port k of the HCA
// whose description says HCA-<n>, <hca>/P<k> port k of that HCA. A director's line-card ports
// (L1/P2, S1/P3) need its IBNL and are refused: give such a fabric's plan as a cable list.
#pragma once

#include <string>
#include <string_view>

#include "discover/cable_plan.h"

namespace slurmtopo {

// True when the first line that is not blank or a comment is a system line (two or more
// words, no indent) and the next such line is an indented port line with an arrow (`->`,
// `-4x-5G->`), or when that first line is itself such a port line.
bool looks_like_ibdm_topology(std::string_view text);

// Throws InputError (file:line) for a port line outside a system, a line that is neither, a
// width or speed ibdm does not write, a port name above, and a port cabled twice to different
// ends.
CablePlan parse_ibdm_topology(std::string_view text, const std::string& file);

}  // namespace slurmtopo
