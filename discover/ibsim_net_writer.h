// Writes a Fabric as an ibsim net file (`generate … --format ibsim`), to serve it to real
// libibumad clients (OpenSM, ibnetdiscover, slurmtopo discover fabric) through umad2sim.
#pragma once

#include <ostream>

#include "discover/fabric.h"

namespace slurmtopo {

// ibsim (0.10) already reads ibnetdiscover's topology text as a net file: the quoted "S-<guid>"
// names become node ids, switchguid=/caguid=/devid= lines set GUIDs and device ids, and the
// "lid N <width>x<speed>" at the end of each port line sets that end's enabled width and speed,
// so a degraded cable (written on both ends) trains degraded and a missing cable is a port
// that is down. So this is that text, with what ibsim needs guaranteed:
//   - every node gets a block, also one a partial sweep saw only as a cable's far end (ibsim
//     refuses a cable to a node it has no block for);
//   - every cable has a width (1x, 2x, 4x, 8x, 12x) and a speed ibsim 0.10 can emulate (SDR,
//     DDR, QDR, FDR10, FDR, EDR, HDR: it has no NDR or XDR and would silently run the cable at
//     SDR), and descriptions have no '"' (ibsim ends the description there).
// LIDs are written as the fabric has them: ibsim starts its ports with them and OpenSM keeps
// valid ones. What ibsim does not keep: CA port GUIDs (it uses node GUID + port number).
// Throws std::invalid_argument naming the first cable or node it cannot write.
void write_ibsim_net(const Fabric& fabric, std::ostream& out);

}  // namespace slurmtopo
