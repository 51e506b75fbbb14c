#include "discover/fabric.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace slurmtopo {

const char* to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::Switch: return "Switch";
    case NodeKind::Ca: return "Ca";
    case NodeKind::Router: return "Rt";
  }
  return "?";
}

namespace {
struct SpeedName { LinkSpeed speed; const char* name; double lane_gbps; };
// Data rate per lane after encoding overhead (8b/10b up to QDR, 64b/66b after).
constexpr SpeedName kSpeeds[] = {
    {LinkSpeed::SDR, "SDR", 2.0},     {LinkSpeed::DDR, "DDR", 4.0},
    {LinkSpeed::QDR, "QDR", 8.0},     {LinkSpeed::FDR10, "FDR10", 10.0},
    {LinkSpeed::FDR, "FDR", 13.64},   {LinkSpeed::EDR, "EDR", 25.0},
    {LinkSpeed::HDR, "HDR", 50.0},    {LinkSpeed::NDR, "NDR", 100.0},
    {LinkSpeed::XDR, "XDR", 200.0},
};
}  // namespace

const char* to_string(LinkSpeed speed) {
  for (const auto& s : kSpeeds)
    if (s.speed == speed) return s.name;
  return "unknown";
}

LinkSpeed parse_link_speed(const std::string& text) {
  for (const auto& s : kSpeeds)
    if (text == s.name) return s.speed;
  return LinkSpeed::Unknown;
}

double lane_gbps(LinkSpeed speed) {
  for (const auto& s : kSpeeds)
    if (s.speed == speed) return s.lane_gbps;
  return 0.0;
}

const FabricNode* Fabric::find(uint64_t guid) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), guid,
                             [](const FabricNode& n, uint64_t g) { return n.guid < g; });
  return it != nodes.end() && it->guid == guid ? &*it : nullptr;
}

void normalize(Fabric& fabric) {
  // A node may have been added as a peer placeholder and later with its own block:
  // keep the real block.
  // Sorted as (GUID, placeholder, input position) keys, then moved once.
  std::vector<std::tuple<uint64_t, bool, uint32_t>> node_order;
  node_order.reserve(fabric.nodes.size());
  for (const auto& n : fabric.nodes)
    node_order.emplace_back(n.guid, n.seen_only_as_peer, static_cast<uint32_t>(node_order.size()));
  const bool in_order = std::is_sorted(node_order.begin(), node_order.end());
  if (!in_order) std::sort(node_order.begin(), node_order.end());
  const bool twice = std::adjacent_find(node_order.begin(), node_order.end(), [](const auto& x, const auto& y) {
                       return std::get<0>(x) == std::get<0>(y);
                     }) != node_order.end();
  if (!in_order || twice) {  // else the nodes are already what this would build
    std::vector<FabricNode> nodes;
    nodes.reserve(fabric.nodes.size());
    for (const auto& [guid, placeholder, index] : node_order)
      if (nodes.empty() || nodes.back().guid != guid) nodes.push_back(std::move(fabric.nodes[index]));
    fabric.nodes = std::move(nodes);
  }
  for (auto& link : fabric.links)
    if (std::tie(link.b.guid, link.b.port) < std::tie(link.a.guid, link.a.port))
      std::swap(link.a, link.b);
  auto key = [](const Link& l) { return std::tie(l.a.guid, l.a.port, l.b.guid, l.b.port); };
  // Sorted as small keys, ties in input order (the first end printed is merged into), then
  // the Links moved once: sorting the Links themselves moved each many times.
  struct Order {
    uint64_t a_guid, b_guid;
    int a_port, b_port;
    uint32_t index;
    bool operator<(const Order& o) const {
      return std::tie(a_guid, a_port, b_guid, b_port, index) < std::tie(o.a_guid, o.a_port, o.b_guid, o.b_port, o.index);
    }
  };
  std::vector<Order> order;
  order.reserve(fabric.links.size());
  for (const auto& l : fabric.links)
    order.push_back({l.a.guid, l.b.guid, l.a.port, l.b.port, static_cast<uint32_t>(order.size())});
  if (!std::is_sorted(order.begin(), order.end())) std::sort(order.begin(), order.end());
  // The same cable printed from both ends: merge what each end knew.
  std::vector<Link> merged;
  merged.reserve(fabric.links.size());
  for (const Order& o : order) {
    const Link& link = fabric.links[o.index];
    if (!merged.empty() && key(merged.back()) == key(link)) {
      Link& m = merged.back();
      if (!m.a.port_guid) m.a.port_guid = link.a.port_guid;
      if (!m.b.port_guid) m.b.port_guid = link.b.port_guid;
      if (!m.a.lid) m.a.lid = link.a.lid;
      if (!m.b.lid) m.b.lid = link.b.lid;
      if (!m.width) m.width = link.width;
      if (m.speed == LinkSpeed::Unknown) m.speed = link.speed;
      continue;
    }
    merged.push_back(link);
  }
  fabric.links = std::move(merged);
}

std::string guid_hex(uint64_t guid) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

}  // namespace slurmtopo
