// Reader for ibnetdiscover's topology text, as every rdma-core/OFED version prints it.
#pragma once

#include <string>
#include <string_view>

#include "discover/fabric.h"

namespace slurmtopo {

// Parses the text of one dump. `file` names it in errors (InputError with the line number).
// umad error lines and nodes seen only as a cable's far end are recorded in Fabric::partial.
Fabric parse_ibnetdiscover_text(std::string_view text, const std::string& file);

// True when the text looks like ibnetdiscover output (used to recognise --fabric files).
bool looks_like_ibnetdiscover_text(std::string_view head);

}  // namespace slurmtopo
