// slurmtopo's own snapshot: versioned JSON of everything discovered, for offline use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

struct Snapshot {
  std::vector<Fabric> fabrics;
};

std::string snapshot_to_json(const Snapshot& snapshot);  // deterministic bytes
Snapshot snapshot_from_json(std::string_view text, const std::string& file);
bool looks_like_snapshot(std::string_view head);

}  // namespace slurmtopo
