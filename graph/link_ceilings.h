// The best a cable could run at: the slower of what its two ends can train. A cable below that
// lost lanes or speed (a fault); a cable at it runs as fast as its slower end allows, however
// slow next to the rest of the fabric (a DDR ConnectX on a QDR switch: mixed generations).
#pragma once

#include <cstdint>
#include <string>

#include "discover/fabric.h"
#include "discover/site_config.h"

namespace slurmtopo {

// What one end can train at best, and what says so.
struct EndCeiling {
  LinkSpeed speed = LinkSpeed::Unknown;  // Unknown / 0: nothing in the input says
  int width = 0;
  uint32_t vendor_id = 0, device_id = 0;  // the hardware, named by label()
  bool port_info = false;  // the port's PortInfo (or iblinkinfo's hint) set it below the table's
  // "ConnectX-4 0x1013", "vendor 0x0008f1 device 0x5a5a": made when a message needs it, not for
  // each of a large fabric's cable ends.
  std::string label() const;
};

// The port's PortInfo and the node's device id (discover/device_ids.h), each where the input
// has it. PortInfo narrows the table (a QDR-only SKU of an FDR chip) but never raises it past
// what the ASIC can (ibsim answers any width on every port); alone, it stands.
EndCeiling end_ceiling(const FabricNode& node, const LinkEnd& end);

// One dimension (width or speed, as a number that orders) of one cable, against its ends' best.
enum class RateVerdict {
  AtBest,   // at the target: the ends' common best, what one known end allows, or the site's
  Below,    // below the target: lost lanes or speed
  Unknown,  // nothing to judge it by: the ends' best are not known (judge it against its peers)
};
struct Judged {
  RateVerdict verdict = RateVerdict::Unknown;
  int target = 0;         // what it should run at (AtBest, Below); 0 when Unknown
  bool both_known = false;  // the target is both ends' common best (not one end's, not the site's alone)
};

// `value` the cable's (0: the input does not say: AtBest, nothing to judge); `a`, `b` the ends'
// best (0: unknown); `site` the site's expectation (0: none). Rules:
//   both ends known   the target is the lower; a cable above it contradicts the evidence, which
//                     then counts as unknown
//   one end known     a cable at that end's best is AtBest (the known end limits it); below it,
//                     the unknown end may be why: Unknown
//   site expectation  replaces the ends' target, capped by what the known ends support (a DDR
//                     HCA is not degraded because the site expects QDR); never Unknown
Judged judge(int value, int a, int b, int site);

// "4xFDR", "4x" (speed unknown), "FDR" (width unknown), "" (neither).
std::string rate_text(int width, LinkSpeed speed);

}  // namespace slurmtopo
