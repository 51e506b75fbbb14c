// Internal to simulate/network: walking many single-path routes at once. A route is a chain
// of dependent reads (a forwarding-table entry names a port, the port a switch, the switch
// the next entry); on a large fabric each read is a cache miss, and one route at a time
// waits out every one of them. Interleaving kLanes routes, each prefetching its next read
// before the others take their turn, keeps that many misses in flight.
#pragma once

#include <cstddef>
#include <vector>

#include "simulate/network/fabric_index.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

enum class Walked { Walking, Arrived, Unreachable };

// What a hop reads once its port is known, in 8 bytes where a PortEntry takes 40: an array of
// them for a large fabric's switches stays in a core's L2.
struct PackedHop {
  int link2 = -1;  // the cable out: 2 × its link + (0 from end a, 1 from end b); -1: no cable
  int peer = 0;    // the far end: its switch index, or ~vertex when it is not a switch
  static PackedHop of(const PortEntry& e) {
    return PackedHop{2 * e.out.link + (e.out.a_to_b ? 0 : 1), e.peer_switch >= 0 ? e.peer_switch : ~e.peer};
  }
  // The cable directed out, in the fabric of the switch the hop leaves.
  DirectedLink out(int fabric) const { return DirectedLink{fabric, link2 >> 1, (link2 & 1) == 0}; }
};

// Each switch's fabric by switch index: the half of a DirectedLink a PackedHop leaves out.
inline std::vector<int> fabric_of_switches(const Cluster& c) {
  std::vector<int> out(c.switches.size());
  for (size_t s = 0; s < out.size(); ++s) out[s] = c.switches[s].fabric;
  return out;
}

// Routes flows 0..n-1. start(flow, lane, links) sets up a lane (links empty) and returns
// Walking, or finishes the flow there; step(lane, links) takes one read, appending the links
// it crosses. sink(flow, links, count, reachable) is called once per flow, in any order.
template <typename Lane, typename Start, typename Step, typename Sink>
void walk_lanes(size_t n, Start&& start, Step&& step, Sink&& sink) {
  constexpr int kLanes = 16;
  struct Slot {
    size_t flow;
    int buffer;
    Lane lane;
  };
  Slot slots[kLanes];
  std::vector<DirectedLink> buffers[kLanes];
  int free_buffers[kLanes];
  for (int b = 0; b < kLanes; ++b) free_buffers[b] = b;
  int active = 0, spare = kLanes;
  size_t next = 0;
  auto fill = [&] {
    while (next < n && active < kLanes) {
      const size_t f = next++;
      const int b = free_buffers[spare - 1];
      std::vector<DirectedLink>& links = buffers[b];
      links.clear();
      Slot& s = slots[active];
      const Walked w = start(f, s.lane, links);
      if (w == Walked::Walking) {
        s.flow = f;
        s.buffer = b;
        --spare;
        ++active;
      } else {
        sink(f, links.data(), static_cast<int>(links.size()), w == Walked::Arrived);
      }
    }
  };
  fill();
  while (active > 0) {
    for (int j = 0; j < active;) {
      Slot& s = slots[j];
      std::vector<DirectedLink>& links = buffers[s.buffer];
      const Walked w = step(s.lane, links);
      if (w == Walked::Walking) {
        ++j;
        continue;
      }
      sink(s.flow, links.data(), static_cast<int>(links.size()), w == Walked::Arrived);
      free_buffers[spare++] = s.buffer;
      slots[j] = slots[--active];
      fill();
    }
  }
}

// A walked flow into a RouteSet sized for the batch (out.flows has a slot per flow): the sink
// route_many gives walk_lanes.
inline void add_walked(RouteSet& out, size_t flow, const DirectedLink* links, int count, bool reachable) {
  out.flows[flow] = {static_cast<int>(out.paths.size()), reachable ? 1 : 0};
  if (!reachable) return;
  out.paths.push_back({{static_cast<int>(out.links.size()), count}, 1.0});
  out.links.insert(out.links.end(), links, links + count);
}

}  // namespace slurmtopo
