#include "simulate/network/fabric_index.h"

#include <algorithm>
#include <stdexcept>

namespace slurmtopo {

FabricIndex::FabricIndex(const Cluster& cluster) : cluster_(&cluster) {
  const int num_fabrics = static_cast<int>(cluster.fabrics.size());
  int total = 0;
  for (const auto& f : cluster.fabrics) {
    fabric_base_.push_back(total);
    total += static_cast<int>(f.nodes.size());
  }
  if (static_cast<size_t>(total) != boost::num_vertices(cluster.graph))
    throw std::logic_error("FabricIndex: the cluster graph does not match its fabrics");

  switch_of_.assign(total, -1);
  for (int s = 0; s < static_cast<int>(cluster.switches.size()); ++s) {
    switch_of_[cluster.switches[s].vertex] = s;
    switch_vertex_.push_back(static_cast<int>(cluster.switches[s].vertex));
  }
  // One pass over the cluster's HCAs (each a cache miss on a large fabric); their
  // attachments are completed below, once the ports are known.
  hcas_.resize(cluster.hcas.size());
  hca_of_vertex_.assign(total, -1);
  for (int h = 0; h < static_cast<int>(cluster.hcas.size()); ++h) {
    hcas_[h].vertex = cluster.hcas[h].vertex;
    hcas_[h].fabric = cluster.hcas[h].fabric;
    hca_of_vertex_[hcas_[h].vertex] = h;
  }

  // Port entries, both ends of every cable, by vertex and then port (cables in fabric order
  // where a port repeats); a loopback cable never carries a route. Bucketed by vertex, then
  // each vertex's few entries put in port order: on a 65,536-host fabric a sort of the ~10^6
  // entries was a third of what building the model cost.
  const auto& ends = cluster.link_vertices;
  bool ends_match = ends.size() == cluster.fabrics.size();
  for (size_t f = 0; f < ends.size() && ends_match; ++f) ends_match = ends[f].size() == cluster.fabrics[f].links.size();
  if (!ends_match) throw std::logic_error("FabricIndex: the cluster's link ends do not match its fabrics");
  offsets_.assign(total + 1, 0);
  for (const auto& list : ends)
    for (const auto& [va, vb] : list)
      if (va >= 0 && vb >= 0 && va != vb) ++offsets_[va + 1], ++offsets_[vb + 1];
  for (int v = 0; v < total; ++v) offsets_[v + 1] += offsets_[v];
  entries_.resize(offsets_[total]);
  {
    std::vector<int> fill(offsets_.begin(), offsets_.end() - 1);
    for (int f = 0; f < num_fabrics; ++f) {
      const Fabric& fabric = cluster.fabrics[f];
      for (int l = 0; l < static_cast<int>(fabric.links.size()); ++l) {
        const auto [va, vb] = ends[f][l];
        if (va < 0 || vb < 0 || va == vb) continue;
        const Link& link = fabric.links[l];
        entries_[fill[va]++] = PortEntry{link.a.port, vb, switch_of_[vb], link.b.port, link.a.lid, {f, l, true}};
        entries_[fill[vb]++] = PortEntry{link.b.port, va, switch_of_[va], link.a.port, link.b.lid, {f, l, false}};
      }
    }
  }
  auto by_port = [](const PortEntry& x, const PortEntry& y) { return x.port < y.port; };
  for (int v = 0; v < total; ++v) {
    const auto first = entries_.begin() + offsets_[v], last = entries_.begin() + offsets_[v + 1];
    if (!std::is_sorted(first, last, by_port)) std::stable_sort(first, last, by_port);
  }

  // Dense port lookup for switches (forwarding tables name ports by number).
  port_slot_offset_.assign(total, -1);
  for (int v = 0; v < total; ++v) {
    if (switch_of_[v] < 0) continue;
    int max_port = 0;
    for (const auto& e : ports(v)) max_port = std::max(max_port, e.port);
    port_slot_offset_[v] = static_cast<int>(port_slot_.size());
    port_slot_.resize(port_slot_.size() + max_port + 1, -1);
    for (int i = offsets_[v]; i < offsets_[v + 1]; ++i) {
      int& slot = port_slot_[port_slot_offset_[v] + entries_[i].port];
      if (slot < 0) slot = i;
    }
  }

  // LIDs (see the header): keep the fabric's when usable, then number the rest.
  switch_lid_.assign(cluster.switches.size(), 0);
  endpoints_.resize(num_fabrics);
  max_lid_.assign(num_fabrics, 0);
  for (int f = 0; f < num_fabrics; ++f) {
    const Fabric& fabric = cluster.fabrics[f];
    std::vector<LidEndpoint>& eps = endpoints_[f];
    std::vector<uint32_t> given;
    for (int n = 0; n < static_cast<int>(fabric.nodes.size()); ++n) {
      const FabricNode& node = fabric.nodes[n];
      const int v = fabric_base_[f] + n;
      if (switch_of_[v] >= 0) {
        eps.push_back({v, 0, 0, switch_of_[v], 0});
        given.push_back(node.lid);
        continue;
      }
      bool first = true;
      for (int i = offsets_[v]; i < offsets_[v + 1]; ++i) {
        const PortEntry& e = entries_[i];
        if (e.peer_switch < 0) continue;  // a CA-to-CA cable delivers nothing through a switch
        eps.push_back({v, e.port, 0, e.peer_switch, e.peer_port});
        given.push_back(e.lid ? e.lid : (first ? node.lid : 0));
        first = false;
      }
    }
    std::vector<char> used;
    uint32_t max_given = 0;
    for (uint32_t lid : given) max_given = std::max(max_given, lid);
    used.assign(max_given + 1, 0);
    std::vector<size_t> fresh;
    for (size_t i = 0; i < eps.size(); ++i) {
      if (given[i] != 0 && !used[given[i]]) {
        used[given[i]] = 1;
        eps[i].lid = given[i];
      } else {
        fresh.push_back(i);
      }
    }
    uint32_t next = max_given + 1;
    for (size_t i : fresh) eps[i].lid = next++;
    max_lid_[f] = next - 1;
    for (const auto& ep : eps)
      if (ep.port == 0 && switch_of_[ep.vertex] >= 0) switch_lid_[switch_of_[ep.vertex]] = ep.lid;
  }
  // CA port LIDs back into the port entries (the LID a packet to that port carries).
  for (int f = 0; f < num_fabrics; ++f)
    for (const auto& ep : endpoints_[f]) {
      if (ep.port == 0) continue;
      for (int i = offsets_[ep.vertex]; i < offsets_[ep.vertex + 1]; ++i)
        if (entries_[i].port == ep.port) entries_[i].lid = ep.lid;
    }
  // Compute HCAs: the first port cabled to a switch carries their traffic.
  for (HcaAttachment& a : hcas_) {
    for (const auto& e : ports(a.vertex)) {
      if (e.peer_switch < 0) continue;
      a.leaf = e.peer_switch;
      a.leaf_port = e.peer_port;
      a.lid = e.lid;
      a.up = e.out;
      a.down = {e.out.fabric, e.out.link, !e.out.a_to_b};
      break;
    }
  }

  // Switch-to-switch adjacency for the distance searches.
  const int num_switches = static_cast<int>(cluster.switches.size());
  sw_offsets_.assign(num_switches + 1, 0);
  for (int s = 0; s < num_switches; ++s) {
    for (const auto& e : ports(cluster.switches[s].vertex))
      if (e.peer_switch >= 0) sw_adjacent_.push_back(e.peer_switch);
    sw_offsets_[s + 1] = static_cast<int>(sw_adjacent_.size());
  }
  distance_once_ = std::make_unique<std::once_flag[]>(num_switches);
  distance_cache_.resize(num_switches);
}

uint64_t FabricIndex::guid(int vertex) const {
  const VertexRef& r = cluster_->graph[vertex];
  return cluster_->fabrics[r.fabric].nodes[r.node].guid;
}

const PortEntry* FabricIndex::port(int vertex, int port) const {
  if (port_slot_offset_[vertex] >= 0) {
    const int base = port_slot_offset_[vertex];
    const int size = (offsets_[vertex + 1] > offsets_[vertex])
                         ? entries_[offsets_[vertex + 1] - 1].port + 1
                         : 0;
    if (port < 0 || port >= size) return nullptr;
    const int slot = port_slot_[base + port];
    return slot >= 0 ? &entries_[slot] : nullptr;
  }
  for (const auto& e : ports(vertex))
    if (e.port == port) return &e;
  return nullptr;
}

void FabricIndex::compute_distances(int sw, std::vector<uint16_t>& dist) const {
  // Breadth first, a level at a time, each level from whichever side is cheaper: the
  // frontier's cables outward, or every switch not reached yet looking for one neighbour in
  // the frontier. In a fat tree the last levels reach most switches, and a leaf finds a
  // reached parent on its first up-port instead of every parent trying all its leaves.
  const int S = static_cast<int>(sw_offsets_.size()) - 1;
  dist.assign(S, kUnreachable);
  auto degree = [&](int s) { return static_cast<long>(sw_offsets_[s + 1] - sw_offsets_[s]); };
  std::vector<int> frontier{sw}, next;
  frontier.reserve(S);
  next.reserve(S);
  dist[sw] = 0;
  long unreached_edges = static_cast<long>(sw_adjacent_.size()) - degree(sw);
  for (uint16_t level = 0; !frontier.empty(); ++level) {
    long frontier_edges = 0;
    for (int s : frontier) frontier_edges += degree(s);
    next.clear();
    const uint16_t d = static_cast<uint16_t>(level + 1);
    if (frontier_edges * 14 > unreached_edges) {
      for (int v = 0; v < S; ++v) {
        if (dist[v] != kUnreachable) continue;
        for (int i = sw_offsets_[v]; i < sw_offsets_[v + 1]; ++i)
          if (dist[sw_adjacent_[i]] == level) {
            dist[v] = d;
            next.push_back(v);
            break;
          }
      }
    } else {
      for (int s : frontier)
        for (int i = sw_offsets_[s]; i < sw_offsets_[s + 1]; ++i) {
          const int t = sw_adjacent_[i];
          if (dist[t] != kUnreachable) continue;
          dist[t] = d;
          next.push_back(t);
        }
    }
    for (int v : next) unreached_edges -= degree(v);
    frontier.swap(next);
  }
}

const RouteTarget& FabricIndex::target(int sw) const {
  std::call_once(distance_once_[sw], [&] {
    auto t = std::make_unique<RouteTarget>();
    compute_distances(sw, t->dist);
    t->next = std::make_unique<std::atomic<uint32_t>[]>(t->dist.size());
    for (size_t i = 0; i < t->dist.size(); ++i) t->next[i].store(0, std::memory_order_relaxed);
    distance_cache_[sw] = std::move(t);
  });
  return *distance_cache_[sw];
}

void FabricIndex::next_hops(int sw, const std::vector<uint16_t>& dist,
                            std::vector<const PortEntry*>& out) const {
  out.clear();
  const uint16_t d = dist[sw];
  if (d == 0 || d == kUnreachable) return;
  for (const auto& e : ports(switch_vertex(sw)))
    if (e.peer_switch >= 0 && dist[e.peer_switch] + 1 == d) out.push_back(&e);
}

const PortEntry* FabricIndex::dmodk_next_hop(int sw, const std::vector<uint16_t>& dist,
                                             uint32_t lid) const {
  const uint16_t d = dist[sw];
  if (d == 0 || d == kUnreachable) return nullptr;
  // One pass: a switch has at most 255 ports, so the candidates fit on the stack.
  const PortEntry* candidates[256];
  int count = 0;
  for (const auto& e : ports(switch_vertex(sw)))
    if (e.peer_switch >= 0 && dist[e.peer_switch] + 1 == d && count < 256) candidates[count++] = &e;
  return count ? candidates[lid % static_cast<uint32_t>(count)] : nullptr;
}

const PortEntry* FabricIndex::dmodk_next_hop(int sw, const RouteTarget& target, uint32_t lid) const {
  // next[sw]: see kMemoLookedAt.
  uint32_t code = target.next[sw].load(std::memory_order_relaxed);
  const auto entries = ports(switch_vertex(sw));
  if (code == 0) {
    const uint16_t d = target.dist[sw];
    int first = -1, last = -1, count = 0;
    if (d != 0 && d != kUnreachable)
      for (int i = 0; i < static_cast<int>(entries.size()) && i < 255; ++i) {
        const PortEntry& e = entries[i];
        if (e.peer_switch < 0 || target.dist[e.peer_switch] + 1 != d) continue;
        if (first < 0) first = i;
        last = i;
        ++count;
      }
    const bool consecutive = count > 0 && last - first + 1 == count;
    code = kMemoLookedAt | (consecutive ? kMemoConsecutive : 0u) | static_cast<uint32_t>(count) << 8 |
           static_cast<uint32_t>(std::max(first, 0));
    target.next[sw].store(code, std::memory_order_relaxed);  // same value from any thread
  }
  if (((code >> 8) & 0xff) == 0) return nullptr;
  const int place = dmodk_memo_place(target, sw, lid);
  return place >= 0 ? &entries[place] : dmodk_next_hop(sw, target.dist, lid);
}

}  // namespace slurmtopo
