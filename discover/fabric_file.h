// `--fabric FILE`: one flag for every saved form of a fabric, recognised by content.
#pragma once

#include <string>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

enum class FabricFormat { IbnetdiscoverText, IbndCache, Snapshot, Iblinkinfo };

// Throws InputError naming the file when it is none of the known formats.
FabricFormat detect_fabric_format(const std::string& path);

// A snapshot may hold several fabrics; the other formats hold one.
std::vector<Fabric> load_fabric_file(const std::string& path);

}  // namespace slurmtopo
