// libibnetdisc cache → Fabric. The cache is read by the library itself (ibnd_load_fabric), so
// whatever libibnetdisc can load we can; we only check the header first, to say precisely
// what is wrong with a file the library would just reject.
//
// Link width and speed follow what ibnetdiscover prints for the same port, so a cache and
// the text dumped from the same sweep give the same Fabric.
#include "discover/ibnd_cache.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <tuple>

#include "discover/input_error.h"

namespace slurmtopo {
namespace {

// libibnetdisc's cache header (ibnetdisc_cache.c): little-endian magic, then version, node
// count, port count, "from" node GUID and max hops: 28 bytes.
constexpr uint32_t kCacheMagic = 0x8FE7832B;
constexpr uint32_t kCacheVersion = 1;
constexpr size_t kCacheHeaderLen = 28;

uint32_t little_endian32(const unsigned char* p) {
  return p[0] | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

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

struct FabricDeleter {
  void operator()(ibnd_fabric_t* f) const { ibnd_destroy_fabric(f); }
};

// Reads and checks the header ourselves; ibnd_load_fabric would only say "failed".
void check_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  unsigned char header[kCacheHeaderLen];
  in.read(reinterpret_cast<char*>(header), sizeof header);
  if (in.gcount() < 8 || little_endian32(header) != kCacheMagic)
    throw InputError(path, 0, "expected a libibnetdisc cache (ibnetdiscover --cache): no cache magic number");
  uint32_t version = little_endian32(header + 4);
  if (version != kCacheVersion)
    throw InputError(path, 0, "expected libibnetdisc cache version " + std::to_string(kCacheVersion) +
                                  ", found version " + std::to_string(version));
  if (in.gcount() < static_cast<std::streamsize>(kCacheHeaderLen))
    throw InputError(path, 0, "expected a complete libibnetdisc cache header (file cut off)");
}

}  // namespace

Fabric load_ibnd_cache(const std::string& path) {
  check_header(path);
  std::unique_ptr<ibnd_fabric_t, FabricDeleter> ibnd(ibnd_load_fabric(path.c_str(), 0));
  if (!ibnd)
    throw InputError(path, 0, "expected a complete libibnetdisc cache: ibnd_load_fabric could not load it "
                              "(file cut off or corrupted?)");
  Fabric fabric;
  fabric.source = path;
  for (ibnd_node_t* node = ibnd->nodes; node; node = node->next) {
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
      int wa = lanes(mad_get_field(const_cast<uint8_t*>(port->info), 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
      int wb = lanes(mad_get_field(const_cast<uint8_t*>(remote.info), 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
      link.width = !wa ? wb : !wb ? wa : std::min(wa, wb);
      LinkSpeed sa = port_speed(*port), sb = port_speed(remote);
      link.speed = sa == LinkSpeed::Unknown ? sb : sb == LinkSpeed::Unknown ? sa : std::min(sa, sb);
      fabric.links.push_back(link);
    }
  }
  normalize(fabric);
  return fabric;
}

bool looks_like_ibnd_cache(std::string_view head) {
  return head.size() >= 4 && little_endian32(reinterpret_cast<const unsigned char*>(head.data())) == kCacheMagic;
}

}  // namespace slurmtopo
