// The fabric as the subnet manager sees it: nodes and cables, nothing inferred.
// Every reader (ibnetdiscover text, libibnetdisc cache, live sweep, snapshot) produces this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "discover/lft.h"
#include "discover/port_counters.h"

namespace slurmtopo {

enum class NodeKind { Switch, Ca, Router };

// Per-lane signalling families as ibnetdiscover prints them.
enum class LinkSpeed { Unknown, SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR };

const char* to_string(NodeKind kind);
const char* to_string(LinkSpeed speed);
LinkSpeed parse_link_speed(const std::string& text);  // Unknown if not recognised
double lane_gbps(LinkSpeed speed);                     // data rate per lane, Gb/s

// The highest unicast LID (0xC000 and up are multicast): what a LID in any input may be.
inline constexpr uint16_t kMaxUnicastLid = 0xBFFF;

struct FabricNode {
  NodeKind kind = NodeKind::Ca;
  uint64_t guid = 0;         // node GUID (switchguid / caguid)
  uint64_t sysimgguid = 0;   // 0 when the dump does not say; shared by a director's modules
  std::string description;   // NodeDescription, verbatim
  int num_ports = 0;
  uint16_t lid = 0;          // switch port 0 LID, or the CA's first port LID
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  // True when the node has no block of its own in the dump (seen only as a cable's far end):
  // the sweep did not reach it, so its other cables are unknown.
  bool seen_only_as_peer = false;
  // True when the input printed no node GUID for this CA, only a port GUID (iblinkinfo,
  // ibnetdiscover -p): `guid` is then the GUID of its lowest printed port. A node-name map keyed
  // by node GUIDs is looked up below it too (discover/name_map.h, lookup_port_owner).
  bool guid_from_port = false;
};

struct LinkEnd {
  uint64_t guid = 0;       // node GUID
  int port = 0;
  uint64_t port_guid = 0;  // CA ports only; 0 otherwise
  uint16_t lid = 0;        // LID of this end's port (CA) or of the switch
  // The fastest this port can train, where the input says: PortInfo's LinkSpeedSupported,
  // LinkSpeedExtSupported (and the Mellanox FDR10 bit), LinkWidthSupported (live sweep, ibnd
  // cache, snapshot), or iblinkinfo's "Could be" hint (the common best of both ends, put on
  // each). Unknown / 0 when it does not (ibnetdiscover text): then the device id decides
  // (discover/device_ids.h, graph/link_ceilings.h).
  LinkSpeed speed_supported = LinkSpeed::Unknown;
  int width_supported = 0;  // lanes of the widest width supported
};

// One cable. Each appears once, with `a` the end whose (guid, port) sorts first.
struct Link {
  LinkEnd a, b;
  int width = 0;  // lanes: 1, 2, 4, 8, 12; 0 unknown
  LinkSpeed speed = LinkSpeed::Unknown;
  double gbps() const { return width * lane_gbps(speed); }
};

struct Fabric {
  std::string source;            // where it came from (path, "live:mlx5_0/1", …)
  std::string name;              // short name used to label the fabric in output
  // When the fabric was captured, as its input records it: an ibnetdiscover header's
  // "generated on" time (the capturing host's local time, no zone), a live sweep's UTC time
  // (ISO 8601), a snapshot's saved value. "" when the input does not say (iblinkinfo, caches).
  std::string captured;
  std::vector<FabricNode> nodes; // sorted by GUID
  std::vector<Link> links;       // sorted by (a.guid, a.port)
  // Why the sweep may be incomplete (umad errors, nodes without a block of their own, …).
  std::vector<std::string> partial;
  // The switches' forwarding tables when they were read (discover fabric --routes); empty
  // otherwise. Keyed by switch GUID; LIDs are those of this fabric's nodes.
  ForwardingTables routes;
  // The port counters when they were read with the sweep (discover fabric --counters); no
  // ports otherwise. Kept with the fabric so that a snapshot brings them back.
  CounterReadings counters;

  const FabricNode* find(uint64_t guid) const;  // binary search on the sorted nodes
};

// Sorts nodes and links, orients every link, and drops the second copy of each cable,
// so any reader can append in dump order and call this once.
void normalize(Fabric& fabric);

std::string guid_hex(uint64_t guid);  // 16 lower-case hex digits, no 0x

}  // namespace slurmtopo
