// A node-name map keyed by node GUIDs names the HCAs of every input form, including the ones
// that print port GUIDs only (iblinkinfo, ibnetdiscover -p), and names nothing it should not
// (graph/cluster_hosts.cc, discover/port_owner.h).
#include <doctest/doctest.h>

#include <set>

#include "discover/fabric_file.h"
#include "graph/cluster.h"

using namespace slurmtopo;

namespace {
const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/";

// The fabric as a site meets it: HCAs with their factory description, so only the map names them.
Fabric factory(Fabric f) {
  for (auto& n : f.nodes)
    if (n.kind == NodeKind::Ca) n.description = "MT4123 ConnectX6   Mellanox Technologies";
  return f;
}

// The node GUIDs ibsim gave the four HCAs of tests/data/iblinkinfo/fabric.net (in file order).
NameMap node_guid_map() {
  NameMap m;
  m.source = "hosts.map";
  m.by_guid = {{0x100000, "node-a"}, {0x100002, "node-b"}, {0x100004, "node-c"}, {0x100006, "node-d"}};
  return m;
}

std::set<std::string> hosts_of(const std::string& file, const NameMap& names) {
  std::vector<Fabric> fabrics{factory(load_fabric_file(kData + file).front())};
  ClusterOptions options;
  options.names = names;
  const Cluster c = build_cluster(std::move(fabrics), options);
  std::set<std::string> hosts;
  for (const Host& h : c.hosts) hosts.insert(h.name);
  CHECK(c.name_map.matched == 4);
  return hosts;
}

Fabric two_nodes(uint64_t switch_guid, uint64_t ca_port_guid) {
  Fabric f;
  f.name = "adjacent";
  FabricNode sw;
  sw.kind = NodeKind::Switch;
  sw.guid = switch_guid;
  sw.num_ports = 8;
  sw.description = "MF0;leaf01:MQM8700/U1";
  sw.lid = 1;
  FabricNode ca;
  ca.guid = ca_port_guid;
  ca.num_ports = 1;
  ca.description = "MT4123 ConnectX6   Mellanox Technologies";
  ca.lid = 2;
  ca.guid_from_port = true;
  f.nodes = {sw, ca};
  Link l;
  l.a = {switch_guid, 1, 0, 1};
  l.b = {ca_port_guid, 1, ca_port_guid, 2};
  l.width = 4;
  l.speed = LinkSpeed::HDR;
  f.links = {l};
  normalize(f);
  return f;
}
}  // namespace

TEST_CASE("port names: one node-GUID map names the same hosts from ibnetdiscover, -p and iblinkinfo") {
  const std::set<std::string> want = {"node-a", "node-b", "node-c", "node-d"};
  CHECK(hosts_of("iblinkinfo/same-fabric.ibnetdiscover", node_guid_map()) == want);
  CHECK(hosts_of("ibnetdiscover_forms/ports.ibnetdiscover", node_guid_map()) == want);
  CHECK(hosts_of("iblinkinfo/default.iblinkinfo", node_guid_map()) == want);
  CHECK(hosts_of("iblinkinfo/line.iblinkinfo", node_guid_map()) == want);
}

TEST_CASE("port names: a map keyed by port GUIDs still names ibnetdiscover's HCAs (node GUID, then port GUID)") {
  NameMap m;
  m.by_guid = {{0x100001, "node-a"}, {0x100003, "node-b"}, {0x100005, "node-c"}, {0x100007, "node-d"}};
  CHECK(hosts_of("iblinkinfo/same-fabric.ibnetdiscover", m) == std::set<std::string>{"node-a", "node-b", "node-c", "node-d"});
  CHECK(hosts_of("iblinkinfo/default.iblinkinfo", m) == std::set<std::string>{"node-a", "node-b", "node-c", "node-d"});
}

TEST_CASE("port names: a switch GUID next to an HCA's port GUID does not name the HCA") {
  NameMap m;
  m.by_guid = {{0x500000, "leaf01"}};
  std::vector<Fabric> fabrics{two_nodes(0x500000, 0x500001)};
  ClusterOptions options;
  options.names = m;
  const Cluster c = build_cluster(std::move(fabrics), options);
  REQUIRE(c.hcas.size() == 1);
  CHECK(c.hcas[0].host.empty());
  CHECK(c.hosts.empty());

  // The control: the same shape with the HCA's own node GUID in the map is named.
  m.by_guid = {{0x600000, "gpu007"}};
  std::vector<Fabric> named{two_nodes(0x500000, 0x600001)};
  options.names = m;
  const Cluster d = build_cluster(std::move(named), options);
  REQUIRE(d.hcas.size() == 1);
  CHECK(d.hcas[0].host == "gpu007");
}

TEST_CASE("port names: the fallback is only for CAs the input knew by port GUID") {
  // ibnetdiscover gave a node GUID: a map entry one below it is another device's, not this one's.
  Fabric f = two_nodes(0x500000, 0x600001);
  for (auto& n : f.nodes) n.guid_from_port = false;
  NameMap m;
  m.by_guid = {{0x600000, "gpu007"}};
  std::vector<Fabric> fabrics{f};
  ClusterOptions options;
  options.names = m;
  const Cluster c = build_cluster(std::move(fabrics), options);
  REQUIRE(c.hcas.size() == 1);
  CHECK(c.hcas[0].host.empty());
}
