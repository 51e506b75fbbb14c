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
  hca_of_vertex_.assign(total, -1);
  for (int h = 0; h < static_cast<int>(cluster.hcas.size()); ++h)
    hca_of_vertex_[cluster.hcas[h].vertex] = h;

  // Port entries, both ends of every cable; a loopback cable never carries a route.
  std::vector<std::pair<int, PortEntry>> raw;
  for (int f = 0; f < num_fabrics; ++f) {
    const Fabric& fabric = cluster.fabrics[f];
    auto vertex_of = [&](uint64_t g) {
      const FabricNode* n = fabric.find(g);
      return n ? fabric_base_[f] + static_cast<int>(n - fabric.nodes.data()) : -1;
    };
    for (int l = 0; l < static_cast<int>(fabric.links.size()); ++l) {
      const Link& link = fabric.links[l];
      const int va = vertex_of(link.a.guid), vb = vertex_of(link.b.guid);
      if (va < 0 || vb < 0 || va == vb) continue;
      raw.push_back({va, PortEntry{link.a.port, vb, switch_of_[vb], link.b.port, link.a.lid, {f, l, true}}});
      raw.push_back({vb, PortEntry{link.b.port, va, switch_of_[va], link.a.port, link.b.lid, {f, l, false}}});
    }
  }
  std::stable_sort(raw.begin(), raw.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second.port < y.second.port;
  });
  offsets_.assign(total + 1, 0);
  for (const auto& [v, e] : raw) ++offsets_[v + 1];
  for (int v = 0; v < total; ++v) offsets_[v + 1] += offsets_[v];
  entries_.reserve(raw.size());
  for (auto& [v, e] : raw) entries_.push_back(e);

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
        if (switch_of_[e.peer] < 0) continue;  // a CA-to-CA cable delivers nothing through a switch
        eps.push_back({v, e.port, 0, switch_of_[e.peer], e.peer_port});
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
  hcas_.resize(cluster.hcas.size());
  for (int h = 0; h < static_cast<int>(cluster.hcas.size()); ++h) {
    HcaAttachment& a = hcas_[h];
    a.vertex = cluster.hcas[h].vertex;
    a.fabric = cluster.hcas[h].fabric;
    for (const auto& e : ports(a.vertex)) {
      if (switch_of_[e.peer] < 0) continue;
      a.leaf = switch_of_[e.peer];
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
      if (switch_of_[e.peer] >= 0) sw_adjacent_.push_back(switch_of_[e.peer]);
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
  dist.assign(sw_offsets_.size() - 1, kUnreachable);
  std::vector<int> queue;
  queue.reserve(dist.size());
  dist[sw] = 0;
  queue.push_back(sw);
  for (size_t head = 0; head < queue.size(); ++head) {
    const int s = queue[head];
    const uint16_t next = static_cast<uint16_t>(dist[s] + 1);
    for (int i = sw_offsets_[s]; i < sw_offsets_[s + 1]; ++i) {
      const int t = sw_adjacent_[i];
      if (dist[t] != kUnreachable) continue;
      dist[t] = next;
      queue.push_back(t);
    }
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
  // next[sw]: bit 24 set once looked at; bit 16: the next hops are consecutive entries;
  // bits 8-15 their count, bits 0-7 the first one's position among the switch's ports.
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
    code = 1u << 24 | (consecutive ? 1u << 16 : 0u) | static_cast<uint32_t>(count) << 8 |
           static_cast<uint32_t>(std::max(first, 0));
    target.next[sw].store(code, std::memory_order_relaxed);  // same value from any thread
  }
  const uint32_t count = (code >> 8) & 0xff;
  if (count == 0) return nullptr;
  if (code & (1u << 16)) return &entries[(code & 0xff) + lid % count];
  return dmodk_next_hop(sw, target.dist, lid);
}

}  // namespace slurmtopo
