#include "discover/port_owner.h"

namespace slurmtopo {

std::optional<PortOwnerName> lookup_port_owner(const NameMap& map, uint64_t port_guid, int port,
                                               const std::function<bool(uint64_t)>& taken) {
  if (auto name = map.lookup(port_guid)) return PortOwnerName{port_guid, *name};
  for (int below = 1; below <= port && static_cast<uint64_t>(below) <= port_guid; ++below) {
    const uint64_t candidate = port_guid - static_cast<uint64_t>(below);
    if (taken(candidate)) return std::nullopt;
    if (auto name = map.lookup(candidate)) return PortOwnerName{candidate, *name};
  }
  return std::nullopt;
}

}  // namespace slurmtopo
