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
  std::stable_sort(fabric.nodes.begin(), fabric.nodes.end(),
                   [](const FabricNode& x, const FabricNode& y) {
                     return std::tie(x.guid, x.seen_only_as_peer) <
                            std::tie(y.guid, y.seen_only_as_peer);
                   });
  fabric.nodes.erase(std::unique(fabric.nodes.begin(), fabric.nodes.end(),
                                 [](const FabricNode& x, const FabricNode& y) {
                                   return x.guid == y.guid;
                                 }),
                     fabric.nodes.end());
  for (auto& link : fabric.links)
    if (std::tie(link.b.guid, link.b.port) < std::tie(link.a.guid, link.a.port))
      std::swap(link.a, link.b);
  auto key = [](const Link& l) { return std::tie(l.a.guid, l.a.port, l.b.guid, l.b.port); };
  std::stable_sort(fabric.links.begin(), fabric.links.end(),
                   [&](const Link& x, const Link& y) { return key(x) < key(y); });
  // The same cable printed from both ends: merge what each end knew.
  std::vector<Link> merged;
  merged.reserve(fabric.links.size() / 2 + 1);
  for (const auto& link : fabric.links) {
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
