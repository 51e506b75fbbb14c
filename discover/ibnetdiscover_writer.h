// Writes a Fabric as ibnetdiscover topology text (what `generate` produces).
#pragma once

#include <ostream>

#include "discover/fabric.h"

namespace slurmtopo {

// Output that parse_ibnetdiscover_text reads back to the same Fabric (modulo `source`).
void write_ibnetdiscover_text(const Fabric& fabric, std::ostream& out);

}  // namespace slurmtopo
