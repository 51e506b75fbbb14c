// ibnd_fabric_t → Fabric on a fabric built by hand the way libibnetdisc leaves it after a sweep
// (the real library's output is covered by ibnd_cache_test.cc and the ibsim integration test):
// width and speed as ibnetdiscover prints them, and what a partial sweep leaves unanswered.
#include <doctest/doctest.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "discover/ibnd_fabric.h"

using namespace slurmtopo;

namespace {

constexpr uint32_t kLinkUp = 5, kPolling = 2;

// Owns the nodes and ports; links them as libibnetdisc does.
struct HandFabric {
  ibnd_fabric_t fabric{};
  std::deque<ibnd_node_t> nodes;
  std::deque<ibnd_port_t> ports;
  std::deque<std::vector<ibnd_port_t*>> port_arrays;

  ibnd_node_t& node(int type, uint64_t guid, int numports, const char* desc, uint16_t lid) {
    ibnd_node_t& n = nodes.emplace_back();
    n.type = type;
    n.guid = guid;
    n.numports = numports;
    n.smalid = type == IB_NODE_SWITCH ? lid : 0;
    std::strncpy(n.nodedesc, desc, sizeof n.nodedesc - 1);
    mad_set_field64(n.info, 0, IB_NODE_SYSTEM_GUID_F, guid);
    port_arrays.emplace_back(numports + 1, nullptr);
    n.ports = port_arrays.back().data();
    n.next = fabric.nodes;
    fabric.nodes = &n;
    if (type == IB_NODE_SWITCH) port(n, 0, kLinkUp, 0, 0, lid);  // management port: caps
    return n;
  }
  // width: LinkWidthActive bits (2 = 4x, 1 = 1x); ext: LinkSpeedExtActive (4 = HDR, 2 = EDR).
  ibnd_port_t& port(ibnd_node_t& n, int num, uint32_t phys, uint32_t width, uint32_t ext, uint16_t lid) {
    ibnd_port_t& p = ports.emplace_back();
    p.node = &n;
    p.portnum = num;
    p.guid = n.guid + (n.type == IB_NODE_SWITCH ? 0 : num);
    p.base_lid = lid;
    mad_set_field(p.info, 0, IB_PORT_PHYS_STATE_F, phys);
    mad_set_field(p.info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F, width);
    mad_set_field(p.info, 0, IB_PORT_LINK_SPEED_ACTIVE_F, 4);  // QDR signalling, ext speed on top
    mad_set_field(p.info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, ext);
    mad_set_field(p.info, 0, IB_PORT_CAPMASK_F, 1u << 14);  // extended speeds supported
    n.ports[num] = &p;
    return p;
  }
  static void cable(ibnd_port_t& a, ibnd_port_t& b) {
    a.remoteport = &b;
    b.remoteport = &a;
  }
};

const Link* link_at(const Fabric& f, uint64_t guid, int port) {
  for (const Link& l : f.links)
    if ((l.a.guid == guid && l.a.port == port) || (l.b.guid == guid && l.b.port == port)) return &l;
  return nullptr;
}

}  // namespace

TEST_CASE("fabric_from_ibnd: cables once each, the lower width and speed of the two ends") {
  HandFabric h;
  ibnd_node_t& leaf = h.node(IB_NODE_SWITCH, 0xa0, 8, "MF0;leaf01:MQM8700/U1", 1);
  ibnd_node_t& spine = h.node(IB_NODE_SWITCH, 0xb0, 8, "MF0;spine01:MQM8700/U1", 2);
  ibnd_node_t& hca = h.node(IB_NODE_CA, 0xc0, 1, "gpu001 mlx5_0", 0);
  HandFabric::cable(h.port(leaf, 1, kLinkUp, 2, 4, 1), h.port(hca, 1, kLinkUp, 2, 4, 7));
  // One end trained 1x, the other reports 4x; one end HDR, the other EDR.
  HandFabric::cable(h.port(leaf, 5, kLinkUp, 1, 4, 1), h.port(spine, 1, kLinkUp, 2, 2, 2));
  for (int p = 2; p <= 8; ++p)
    if (p != 5) h.port(leaf, p, kPolling, 0, 0, 1);
  for (int p = 2; p <= 8; ++p) h.port(spine, p, kPolling, 0, 0, 2);

  const Fabric f = fabric_from_ibnd(h.fabric);
  CHECK(f.partial.empty());
  REQUIRE(f.nodes.size() == 3);
  CHECK(f.nodes[0].guid == 0xa0);
  CHECK(f.nodes[2].kind == NodeKind::Ca);
  CHECK(f.nodes[2].lid == 7);
  REQUIRE(f.links.size() == 2);
  const Link* host = link_at(f, 0xc0, 1);
  REQUIRE(host);
  CHECK(host->width == 4);
  CHECK(host->speed == LinkSpeed::HDR);
  CHECK(host->b.port_guid == 0xc1);
  const Link* up = link_at(f, 0xb0, 1);
  REQUIRE(up);
  CHECK(up->width == 1);
  CHECK(up->speed == LinkSpeed::EDR);
  CHECK(up->a.port == 5);
}

TEST_CASE("unanswered_ports: a port up with nothing behind it, a switch port never answered, LID 0") {
  HandFabric h;
  ibnd_node_t& leaf = h.node(IB_NODE_SWITCH, 0xa0, 4, "MF0;leaf01:MQM8700/U1", 1);
  ibnd_node_t& hca = h.node(IB_NODE_CA, 0xc0, 1, "gpu001 mlx5_0", 0);
  HandFabric::cable(h.port(leaf, 1, kLinkUp, 2, 4, 1), h.port(hca, 1, kLinkUp, 2, 4, 0));  // LID 0
  h.port(leaf, 2, kLinkUp, 2, 4, 1);  // up, but its NodeInfo never came back
  h.port(leaf, 3, kPolling, 0, 0, 1);  // down: nothing expected
  // port 4: PortInfo never answered
  const std::vector<std::string> missing = unanswered_ports(h.fabric);
  REQUIRE(missing.size() == 3);
  CHECK(missing[0] == "switch 0x00000000000000a0 \"MF0;leaf01:MQM8700/U1\" port 2: link up, but no node answered behind it");
  CHECK(missing[1] == "switch 0x00000000000000a0 \"MF0;leaf01:MQM8700/U1\" port 4: no PortInfo answer");
  CHECK(missing[2] == "1 port still has LID 0: the subnet manager has not finished its sweep");
  CHECK(fabric_from_ibnd(h.fabric).partial == missing);
}

TEST_CASE("unanswered_ports: a long list is cut at the limit, with a count of the rest") {
  HandFabric h;
  ibnd_node_t& sw = h.node(IB_NODE_SWITCH, 0xa0, 30, "MF0;leaf01:MQM8700/U1", 1);
  for (int p = 1; p <= 30; ++p) h.port(sw, p, kLinkUp, 2, 4, 1);
  const std::vector<std::string> missing = unanswered_ports(h.fabric, 5);
  REQUIRE(missing.size() == 6);
  CHECK(missing[4].find("port 5:") != std::string::npos);
  CHECK(missing[5] == "25 more ports without an answer");
}

TEST_CASE("fabric_from_ibnd: each end's PortInfo says the best it supports") {
  HandFabric h;
  ibnd_node_t& leaf = h.node(IB_NODE_SWITCH, 0xa0, 2, "MF0;leaf01:MQM8700/U1", 1);
  ibnd_node_t& hca = h.node(IB_NODE_CA, 0xc0, 1, "gpu001 mlx5_0", 0);
  ibnd_node_t& old = h.node(IB_NODE_CA, 0xd0, 1, "gpu002 mlx4_0", 0);
  ibnd_port_t& sw = h.port(leaf, 1, kLinkUp, 2, 2, 1);
  ibnd_port_t& ca = h.port(hca, 1, kLinkUp, 2, 2, 7);
  // The switch port does FDR, EDR and HDR (LinkSpeedExtSupported 7) at 1x, 2x and 4x (0x13); the
  // HCA up to EDR (3) at 4x only (2), trained EDR.
  mad_set_field(sw.info, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, 7);
  mad_set_field(sw.info, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F, 0x13);
  mad_set_field(ca.info, 0, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, 3);
  mad_set_field(ca.info, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F, 2);
  HandFabric::cable(sw, ca);
  // A DDR-era HCA port: no extended speeds, LinkSpeedSupported SDR and DDR (3), 1x and 4x (3).
  ibnd_port_t& sw2 = h.port(leaf, 2, kLinkUp, 2, 0, 1);
  ibnd_port_t& qdr = h.port(old, 1, kLinkUp, 2, 0, 8);
  mad_set_field(qdr.info, 0, IB_PORT_CAPMASK_F, 0);
  mad_set_field(qdr.info, 0, IB_PORT_LINK_SPEED_SUPPORTED_F, 3);
  mad_set_field(qdr.info, 0, IB_PORT_LINK_WIDTH_SUPPORTED_F, 3);
  HandFabric::cable(sw2, qdr);

  const Fabric f = fabric_from_ibnd(h.fabric);
  const Link* host = link_at(f, 0xc0, 1);
  REQUIRE(host);
  CHECK(host->a.guid == 0xa0);
  CHECK(host->a.speed_supported == LinkSpeed::HDR);
  CHECK(host->a.width_supported == 4);
  CHECK(host->b.speed_supported == LinkSpeed::EDR);
  CHECK(host->b.width_supported == 4);
  const Link* older = link_at(f, 0xd0, 1);
  REQUIRE(older);
  CHECK(older->b.speed_supported == LinkSpeed::DDR);
  CHECK(older->b.width_supported == 4);
  CHECK(older->a.speed_supported == LinkSpeed::Unknown);  // the switch port says nothing here
}
