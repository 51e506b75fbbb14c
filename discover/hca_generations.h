// Mixed HCA generations in a generated fabric (`slurmtopo generate --hca-generation`): some
// hosts' HCAs an older (or newer) model than the fabric's, as clusters grown over the years
// are. Their cables train at what the slower end can do, which is no fault; a test pairs them
// with an injected degraded cable (discover/synthetic_faults.h), which still is.
#pragma once

#include <string>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

struct HcaGeneration {
  std::vector<std::string> hosts;  // host names, as the generator names them ("gpu001")
  LinkSpeed speed = LinkSpeed::Unknown;  // the model's best: QDR, FDR, EDR, HDR, NDR or XDR
};

// "HOSTLIST:SPEED", e.g. "gpu[001-004]:EDR" (speed in any case). Throws InputError naming
// --hca-generation for another form, a bad hostlist or a speed no model is given for.
HcaGeneration parse_hca_generation(const std::string& spec);

// The HCA model written for a speed (its device id, in discover/device_ids.h's table), 0 if none.
uint32_t hca_device_for(LinkSpeed speed);

// Every HCA of the named hosts becomes that model (its device id goes into the dump; the node
// description stays the host's) and each of its cables trains at the slower of the cable's
// speed and the model's best. Applied before faults, so a fault can still degrade such a cable.
// Throws InputError("--hca-generation") for a host the fabric does not have.
void apply_hca_generations(Fabric& fabric, const std::vector<HcaGeneration>& generations);

}  // namespace slurmtopo
