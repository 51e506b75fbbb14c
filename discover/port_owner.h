// Naming a CA that the input knew only by a port GUID (iblinkinfo, ibnetdiscover -p) from a
// node-name map keyed by node GUIDs, as ibnetdiscover's --node-name-map files are.
//
// The rule, from how port GUIDs are handed out:
//   ConnectX-4 and later  port p's GUID = node GUID + (p - 1)   (port 1 = the node GUID)
//   ibsim (init_ports)    port p's GUID = node GUID + p
// so the node GUID of port p's GUID G is one of G, G-1, …, G-p. They are tried nearest first;
// the first one in the map names the CA. A candidate that is another node's GUID or port GUID
// (`taken`) is never used, and nothing below it is tried: a switch whose GUID sits just below an
// HCA's is present in the fabric, so the HCA is not named after it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "discover/name_map.h"

namespace slurmtopo {

struct PortOwnerName {
  uint64_t guid = 0;  // the map's GUID that matched
  std::string name;
};

// `port` is the port G belongs to (1-255). `taken(g)` is true when g is the GUID of a node, or a
// port GUID, other than the CA's own.
std::optional<PortOwnerName> lookup_port_owner(const NameMap& map, uint64_t port_guid, int port,
                                               const std::function<bool(uint64_t)>& taken);

}  // namespace slurmtopo
