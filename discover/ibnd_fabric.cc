// ibnd_fabric_t → Fabric, shared by the live sweep and the cache reader.
//
// Link width and speed follow what ibnetdiscover prints for the same port, so a sweep and the
// text dumped from it give the same Fabric.
#include "discover/ibnd_fabric.h"

#include <infiniband/mad.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>

namespace slurmtopo {
namespace {

// PortInfo:CapabilityMask bit 14, IsExtendedSpeedsSupported: only then is
// LinkSpeedExtActive (FDR and later) meaningful.
constexpr uint32_t kCapHasExtSpeeds = 1u << 14;
// Mellanox ExtendedPortInfo:LinkSpeedActive bit 0: the QDR-signalled link runs FDR10.
constexpr uint32_t kMlnxFdr10 = 1u;

int lanes(uint32_t link_width_active) {
  switch (link_width_active) {
    case 1: return 1;
    case 2: return 4;
    case 4: return 8;
    case 8: return 12;
    case 16: return 2;
  }
  return 0;
}

// The speed ibnetdiscover would print for this port: the extended field wins when the port
// supports it and reports one; QDR may really be FDR10 (a Mellanox extension).
LinkSpeed port_speed(const ibnd_port_t& port) {
  const ibnd_node_t& node = *port.node;
  // A switch's capability mask lives on its management port 0.
  const ibnd_port_t* caps = node.type == IB_NODE_SWITCH ? node.ports[0] : &port;
  if (!caps) return LinkSpeed::Unknown;
  auto info = const_cast<uint8_t*>(port.info);  // libibmad's getters take non-const buffers
  uint32_t speed = mad_get_field(info, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
  uint32_t cap_mask = mad_get_field(const_cast<uint8_t*>(caps->info), 0, IB_PORT_CAPMASK_F);
  uint32_t ext = cap_mask & kCapHasExtSpeeds ? mad_get_field(info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F) : 0;
  if (!ext && speed != 4) {
    switch (speed) {
      case 1: return LinkSpeed::SDR;
      case 2: return LinkSpeed::DDR;
    }
    return LinkSpeed::Unknown;
  }
  switch (ext) {
    case 0: {
      uint32_t mlnx = mad_get_field(const_cast<uint8_t*>(port.ext_info), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);
      return mlnx & kMlnxFdr10 ? LinkSpeed::FDR10 : LinkSpeed::QDR;
    }
    case 1: return LinkSpeed::FDR;
    case 2: return LinkSpeed::EDR;
    case 4: return LinkSpeed::HDR;
    case 8: return LinkSpeed::NDR;
    case 16: return LinkSpeed::XDR;
  }
  return LinkSpeed::Unknown;
}

// The fastest speed this port supports, from the same fields port_speed reads for the active
// one: LinkSpeedExtSupported (its highest bit) where the port has extended speeds, else FDR10
// from the Mellanox ExtendedPortInfo, else LinkSpeedSupported (SDR, DDR, QDR bits). Unknown
// when the port reports none (a CA port libibnetdisc did not ask).
LinkSpeed port_speed_supported(const ibnd_port_t& port) {
  const ibnd_node_t& node = *port.node;
  const ibnd_port_t* caps = node.type == IB_NODE_SWITCH ? node.ports[0] : &port;
  if (!caps) return LinkSpeed::Unknown;
  auto info = const_cast<uint8_t*>(port.info);
  const uint32_t cap_mask = mad_get_field(const_cast<uint8_t*>(caps->info), 0, IB_PORT_CAPMASK_F);
  const uint32_t ext = cap_mask & kCapHasExtSpeeds ? mad_get_field(info, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F) : 0;
  // LinkSpeedExtSupported bits: 1 FDR, 2 EDR, 4 HDR, 8 NDR, 16 XDR.
  constexpr LinkSpeed kExt[] = {LinkSpeed::FDR, LinkSpeed::EDR, LinkSpeed::HDR, LinkSpeed::NDR, LinkSpeed::XDR};
  for (int bit = 4; bit >= 0; --bit)
    if (ext & (1u << bit)) return kExt[bit];
  const uint32_t mlnx = mad_get_field(const_cast<uint8_t*>(port.ext_info), 0, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F);
  if (mlnx & kMlnxFdr10) return LinkSpeed::FDR10;
  const uint32_t speed = mad_get_field(info, 0, IB_PORT_LINK_SPEED_SUPPORTED_F);  // 1 SDR, 2 DDR, 4 QDR
  return speed & 4 ? LinkSpeed::QDR : speed & 2 ? LinkSpeed::DDR : speed & 1 ? LinkSpeed::SDR : LinkSpeed::Unknown;
}

// LinkWidthSupported's widest: bits 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x.
int port_width_supported(const ibnd_port_t& port) {
  const uint32_t bits = mad_get_field(const_cast<uint8_t*>(port.info), 0, IB_PORT_LINK_WIDTH_SUPPORTED_F);
  return bits & 8 ? 12 : bits & 4 ? 8 : bits & 2 ? 4 : bits & 16 ? 2 : bits & 1 ? 1 : 0;
}

NodeKind node_kind(int type) {
  switch (type) {
    case IB_NODE_SWITCH: return NodeKind::Switch;
    case IB_NODE_ROUTER: return NodeKind::Router;
  }
  return NodeKind::Ca;
}

// NodeDescription is 64 bytes, NUL-padded, not necessarily terminated; ibnetdiscover shows
// unprintable bytes as spaces, and so do we, so text and cache agree.
std::string description(const ibnd_node_t& node) {
  size_t len = strnlen(node.nodedesc, IB_SMP_DATA_SIZE);
  std::string out(node.nodedesc, len);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

LinkEnd link_end(const ibnd_port_t& port) {
  LinkEnd end;
  end.guid = port.node->guid;
  end.port = port.portnum;
  bool is_switch = port.node->type == IB_NODE_SWITCH;
  end.port_guid = is_switch ? 0 : port.guid;
  end.lid = is_switch ? port.node->smalid : port.base_lid;
  end.speed_supported = port_speed_supported(port);
  end.width_supported = port_width_supported(port);
  return end;
}

FabricNode fabric_node(const ibnd_node_t& node) {
  auto info = const_cast<uint8_t*>(node.info);
  FabricNode out;
  out.kind = node_kind(node.type);
  out.guid = node.guid;
  out.sysimgguid = mad_get_field64(info, 0, IB_NODE_SYSTEM_GUID_F);
  out.description = description(node);
  out.num_ports = node.numports;
  out.vendor_id = mad_get_field(info, 0, IB_NODE_VENDORID_F);
  out.device_id = mad_get_field(info, 0, IB_NODE_DEVID_F);
  if (out.kind == NodeKind::Switch) {
    out.lid = node.smalid;
  } else {
    // As in the text reader: a CA's LID is that of its first connected port.
    for (int p = 1; p <= node.numports; ++p)
      if (node.ports[p] && node.ports[p]->remoteport) {
        out.lid = node.ports[p]->base_lid;
        break;
      }
  }
  return out;
}

// PortInfo:PortPhysicalState 5: the link trained; a node answers behind it.
constexpr uint32_t kPhysLinkUp = 5;

uint32_t port_field(const ibnd_port_t& port, enum MAD_FIELDS field) {
  return mad_get_field(const_cast<uint8_t*>(port.info), 0, field);
}

std::string node_label(const ibnd_node_t& node) {
  return std::string(node.type == IB_NODE_SWITCH ? "switch" : node.type == IB_NODE_ROUTER ? "router" : "CA") +
         " 0x" + guid_hex(node.guid) + " \"" + description(node) + "\"";
}

}  // namespace

std::vector<std::string> unanswered_ports(const ibnd_fabric_t& ibnd, size_t limit) {
  struct Finding {
    uint64_t guid;
    int port;
    std::string text;
  };
  std::vector<Finding> found;
  size_t lid0 = 0;
  for (const ibnd_node_t* node = ibnd.nodes; node; node = node->next) {
    const bool is_switch = node->type == IB_NODE_SWITCH;
    if (is_switch && node->ports[0] && node->smalid == 0) ++lid0;
    for (int p = 1; p <= node->numports; ++p) {
      const ibnd_port_t* port = node->ports[p];
      if (!port) {
        // libibnetdisc asks every switch port for PortInfo; a CA only for the port it came in by.
        if (is_switch)
          found.push_back({node->guid, p, node_label(*node) + " port " + std::to_string(p) + ": no PortInfo answer"});
        continue;
      }
      if (!is_switch && port->remoteport && port->base_lid == 0) ++lid0;
      if (!port->remoteport && port_field(*port, IB_PORT_PHYS_STATE_F) == kPhysLinkUp)
        found.push_back({node->guid, p, node_label(*node) + " port " + std::to_string(p) +
                                            ": link up, but no node answered behind it"});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Finding& a, const Finding& b) { return std::tie(a.guid, a.port) < std::tie(b.guid, b.port); });
  std::vector<std::string> out;
  for (size_t i = 0; i < found.size() && i < limit; ++i) out.push_back(found[i].text);
  if (found.size() > limit)
    out.push_back(std::to_string(found.size() - limit) + (found.size() - limit == 1 ? " more port" : " more ports") +
                  " without an answer");
  if (lid0)
    out.push_back(std::to_string(lid0) + (lid0 == 1 ? " port still has" : " ports still have") +
                  " LID 0: the subnet manager has not finished its sweep");
  return out;
}

Fabric fabric_from_ibnd(const ibnd_fabric_t& ibnd) {
  Fabric fabric;
  for (const ibnd_node_t* node = ibnd.nodes; node; node = node->next) {
    fabric.nodes.push_back(fabric_node(*node));
    for (int p = 1; p <= node->numports; ++p) {
      const ibnd_port_t* port = node->ports[p];
      if (!port || !port->remoteport) continue;
      const ibnd_port_t& remote = *port->remoteport;
      // Each cable is stored from both ends: take it once, from the end that sorts first.
      if (std::tie(remote.node->guid, remote.portnum) < std::tie(node->guid, port->portnum)) continue;
      Link link;
      link.a = link_end(*port);
      link.b = link_end(remote);
      // Both ends report width and speed; a cable carries no more than the lower (as the
      // text reader decides when the two printed ends disagree).
      int wa = lanes(port_field(*port, IB_PORT_LINK_WIDTH_ACTIVE_F));
      int wb = lanes(port_field(remote, IB_PORT_LINK_WIDTH_ACTIVE_F));
      link.width = !wa ? wb : !wb ? wa : std::min(wa, wb);
      LinkSpeed sa = port_speed(*port), sb = port_speed(remote);
      link.speed = sa == LinkSpeed::Unknown ? sb : sb == LinkSpeed::Unknown ? sa : std::min(sa, sb);
      fabric.links.push_back(link);
    }
  }
  fabric.partial = unanswered_ports(ibnd);
  normalize(fabric);
  return fabric;
}

}  // namespace slurmtopo
