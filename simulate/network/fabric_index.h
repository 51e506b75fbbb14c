// The Cluster's fabrics as flat arrays the routing engines walk: every node's cabled ports in
// port order, the LID of every addressable port, where each compute HCA is cabled, and
// hop distances between switches (computed on first use, cached, thread-safe).
//
// LIDs: a node's LID from the fabric is kept when it is non-zero and not already taken (a
// switch's port 0 LID; a CA port's LID from its cable end, or the node's LID for its first
// cabled port). Ports still without a LID get fresh ones above the largest LID of that
// fabric, in GUID order then port order, so a dump without LIDs (or beyond the 49,151 unicast
// LIDs of one subnet) still routes deterministically.
//
// Internal to simulate/: the routing engines share it; it keeps a reference to the Cluster,
// which must outlive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "graph/cluster.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

struct PortEntry {
  int port = 0;        // this node's port number
  int peer = -1;       // vertex at the far end
  int peer_switch = -1;  // the far end's switch index, -1 if it is not a switch
  int peer_port = 0;   // the far end's port number
  uint32_t lid = 0;    // CA ports: this port's LID; switch ports: 0 (the switch has one LID)
  DirectedLink out;    // the cable, directed from this node outward
};

// Where a compute HCA (Cluster::hcas[i]) meets the fabric: its first port cabled to a switch.
struct HcaAttachment {
  int vertex = -1;
  int fabric = 0;
  int leaf = -1;         // switch index (Cluster::switches); -1 when not cabled to a switch
  int leaf_port = 0;     // the switch's port toward the HCA
  uint32_t lid = 0;      // the LID packets to this HCA carry
  DirectedLink up;       // HCA → switch
  DirectedLink down;     // switch → HCA
};

// A LID a forwarding table routes to: a switch (port 0) or a CA port cabled to a switch.
struct LidEndpoint {
  int vertex = -1;
  int port = 0;          // 0 for a switch
  uint32_t lid = 0;
  int target_switch = -1;  // the switch whose table delivers it locally (itself for a switch)
  int target_port = 0;     // that switch's port toward the CA (0 for a switch)
};

// Everything routing toward one destination switch needs: hop distances, and per switch
// where its next hops sit among its ports (filled in on first use; see dmodk_next_hop).
struct RouteTarget {
  std::vector<uint16_t> dist;                       // by switch index
  std::unique_ptr<std::atomic<uint32_t>[]> next;    // by switch index; 0 = not looked at yet
};

class FabricIndex {
 public:
  static constexpr uint16_t kUnreachable = 0xffff;
  // RouteTarget::next: set once the switch was looked at; set when its next hops are
  // consecutive entries (then bits 8-15 are their count, bits 0-7 the first one's place).
  static constexpr uint32_t kMemoLookedAt = 1u << 24, kMemoConsecutive = 1u << 16;

  explicit FabricIndex(const Cluster& cluster);

  const Cluster& cluster() const { return *cluster_; }
  int num_vertices() const { return static_cast<int>(switch_of_.size()); }
  int vertex(int fabric, int node) const { return fabric_base_[fabric] + node; }
  int switch_of(int vertex) const { return switch_of_[vertex]; }  // -1 if not a switch
  int switch_vertex(int sw) const { return switch_vertex_[sw]; }
  uint64_t guid(int vertex) const;

  // Cabled ports of a node, sorted by port number.
  std::span<const PortEntry> ports(int vertex) const {
    return {entries_.data() + offsets_[vertex], entries_.data() + offsets_[vertex + 1]};
  }
  const PortEntry* port(int vertex, int port) const;  // nullptr when that port has no cable

  uint32_t switch_lid(int sw) const { return switch_lid_[sw]; }
  const HcaAttachment& hca(int h) const { return hcas_[h]; }
  int hca_of_vertex(int vertex) const { return hca_of_vertex_[vertex]; }  // -1 if none
  // Every LID of the fabric with a place to deliver it, in GUID then port order.
  const std::vector<LidEndpoint>& endpoints(int fabric) const { return endpoints_[fabric]; }
  uint32_t max_lid(int fabric) const { return max_lid_[fabric]; }

  // Hops from every switch to switch `sw` over switch-to-switch cables (kUnreachable if none),
  // indexed by switch index. Cached after the first call.
  const std::vector<uint16_t>& distances_to(int sw) const { return target(sw).dist; }
  const RouteTarget& target(int sw) const;
  // The same without caching (for one-off passes over every switch).
  void compute_distances(int sw, std::vector<uint16_t>& dist) const;

  // The ports of switch `sw` one hop closer to the switch whose distances `dist` are, in port
  // order (parallel cables are separate entries). Empty at the target itself.
  void next_hops(int sw, const std::vector<uint16_t>& dist, std::vector<const PortEntry*>& out) const;
  // OpenSM min-hop with D-mod-K spreading: of the next hops toward `dist`'s switch, the one at
  // index lid mod count. nullptr at the target or when unreachable.
  const PortEntry* dmodk_next_hop(int sw, const std::vector<uint16_t>& dist, uint32_t lid) const;
  // The same, remembering per switch where its next hops are: when they are consecutive ports
  // (a fat tree's uplinks, parallel cables down) later calls pick in O(1).
  const PortEntry* dmodk_next_hop(int sw, const RouteTarget& target, uint32_t lid) const;
  // That answer as a place in ports(switch_vertex(sw)), from the memo alone when it has it
  // (consecutive next hops, already looked at), else -1: a batch walk reads one word per hop.
  static int dmodk_memo_place(const RouteTarget& target, int sw, uint32_t lid) {
    const uint32_t code = target.next[sw].load(std::memory_order_relaxed);
    if (!(code & kMemoLookedAt) || !(code & kMemoConsecutive)) return -1;
    return static_cast<int>((code & 0xff) + lid % ((code >> 8) & 0xff));
  }

 private:
  const Cluster* cluster_;
  std::vector<int> fabric_base_;
  std::vector<int> switch_of_;
  std::vector<int> switch_vertex_;
  std::vector<int> hca_of_vertex_;
  std::vector<int> offsets_;
  std::vector<PortEntry> entries_;
  std::vector<int> port_slot_offset_;  // switches: offset into port_slot_ (size num_ports + 1)
  std::vector<int> port_slot_;         // port number → index into entries_, -1 if uncabled
  std::vector<uint32_t> switch_lid_;
  std::vector<HcaAttachment> hcas_;
  std::vector<std::vector<LidEndpoint>> endpoints_;
  std::vector<uint32_t> max_lid_;
  // Switch-to-switch adjacency (switch indices), CSR.
  std::vector<int> sw_offsets_;
  std::vector<int> sw_adjacent_;

  mutable std::unique_ptr<std::once_flag[]> distance_once_;
  mutable std::vector<std::unique_ptr<RouteTarget>> distance_cache_;
};

}  // namespace slurmtopo
