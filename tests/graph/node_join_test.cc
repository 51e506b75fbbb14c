// GPU → NIC → rail → leaf: the nearest-NIC rule, the node-only anomalies, and the join with a
// synthetic rail-optimized fabric (its GUIDs are the ones node_fixtures.h gives the NICs).
#include "graph/node_join.h"

#include <doctest/doctest.h>

#include "discover/synthetic_fabric.h"
#include "tests/graph/node_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

// 2 scalable units x 4 hosts (dgx001-dgx008) x 4 rails: leaves su<s>-rail<r>.
Cluster small_pod(const Faults& faults = {}) {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  Fabric f = generate_rail_optimized(spec);
  apply_faults(f, faults);
  return build_cluster({f}, {});
}

std::vector<NodeInventory> pod_nodes() {
  std::vector<NodeInventory> nodes;
  for (int h = 0; h < 8; ++h) nodes.push_back(dgx_like("dgx00" + std::to_string(h + 1), h, 4));
  return nodes;
}

std::vector<const NodeAnomaly*> of_kind(const NodeJoin& j, NodeAnomaly::Kind kind) {
  std::vector<const NodeAnomaly*> out;
  for (const auto& a : j.anomalies)
    if (a.kind == kind) out.push_back(&a);
  return out;
}

NodeInventory two_gpus_two_nics(PathClass all) {
  NodeInventory n = dgx_like("n1", 0, 2);
  for (auto& g : n.gpus) g.socket = 0;
  for (auto& k : n.nics) k.socket = 0;
  n.gpu_nic = {{all, all}, {all, all}};
  return n;
}

}  // namespace

TEST_CASE("nearest NIC: each GPU takes the NIC on its own PCIe switch") {
  auto c = nearest_nics(dgx_like("dgx001", 0));
  REQUIRE(c.size() == 8);
  for (int g = 0; g < 8; ++g) {
    CHECK(c[g].nic == g);
    CHECK(c[g].path == PathClass::PIX);
  }
}

TEST_CASE("nearest NIC: two GPUs behind one switch with two NICs get one each (DGX A100)") {
  auto c = nearest_nics(two_gpus_two_nics(PathClass::PXB));
  CHECK(c[0].nic == 0);
  CHECK(c[1].nic == 1);
  CHECK(c[1].path == PathClass::PXB);
}

TEST_CASE("nearest NIC: among equally far NICs, the one on the GPU's socket") {
  NodeInventory n = two_gpus_two_nics(PathClass::SYS);
  n.gpus[0].socket = 1;
  n.nics[1].socket = 1;
  CHECK(nearest_nics(n)[0].nic == 1);
}

TEST_CASE("nearest NIC: a node without NICs has none") {
  NodeInventory n = dgx_like("n1", 0, 2);
  n.nics.clear();
  n.gpu_nic = {{}, {}};
  auto c = nearest_nics(n);
  CHECK(c[0].nic == -1);
  NodeJoin j = join_nodes(node_set({n}), nullptr);
  REQUIRE(j.anomalies.size() == 1);
  CHECK(j.anomalies[0].kind == NodeAnomaly::Kind::NoCloseNic);
  CHECK(j.anomalies[0].detail.find("no RDMA NIC at all") != std::string::npos);
}

TEST_CASE("XE8640: GPU 2 has no close NIC, shares mlx5_3 with GPU 3 while mlx5_1 idles") {
  NodeJoin j = join_nodes(node_set({xe8640_like("gpu001")}), nullptr);
  REQUIRE(j.hosts.size() == 1);
  const auto& g = j.hosts[0].gpus;
  CHECK(g[0].nic_name == "mlx5_0");
  CHECK(g[1].nic_name == "mlx5_2");
  CHECK(g[2].nic_name == "mlx5_3");  // all SYS: the one on GPU 2's socket
  CHECK(g[2].path == PathClass::SYS);
  CHECK(g[3].nic_name == "mlx5_3");
  auto far = of_kind(j, NodeAnomaly::Kind::NoCloseNic);
  REQUIRE(far.size() == 1);
  CHECK(far[0]->detail == "no NIC within PXB: GPU 2 nearest is mlx5_3 (SYS)");
  auto shared = of_kind(j, NodeAnomaly::Kind::SharedNic);
  REQUIRE(shared.size() == 1);
  CHECK(shared[0]->detail == "GPUs 2,3 share mlx5_3 while mlx5_1 carries no GPU's traffic");
  CHECK(of_kind(j, NodeAnomaly::Kind::RemoteNic).empty());
}

TEST_CASE("a GPU whose only NIC is on the other socket") {
  NodeInventory n = dgx_like("n1", 0, 2);
  n.nics.pop_back();
  n.gpu_nic = {{PathClass::PIX}, {PathClass::SYS}};
  NodeJoin j = join_nodes(node_set({n}), nullptr);
  auto remote = of_kind(j, NodeAnomaly::Kind::RemoteNic);
  REQUIRE(remote.size() == 1);
  CHECK(remote[0]->detail == "GPU 1 (socket 1) uses mlx5_0 (socket 0)");
  // Sharing is only an anomaly when another NIC idles: here there is none.
  CHECK(of_kind(j, NodeAnomaly::Kind::SharedNic).empty());
}

TEST_CASE("equal findings on many hosts are one anomaly with a hostlist") {
  NodeJoin j = join_nodes(node_set({xe8640_like("gpu003"), xe8640_like("gpu001"), xe8640_like("gpu002")}), nullptr);
  auto far = of_kind(j, NodeAnomaly::Kind::NoCloseNic);
  REQUIRE(far.size() == 1);
  CHECK(far[0]->subject == "gpu[001-003]");
}

TEST_CASE("join: every GPU reaches its rail's leaf, nothing to report") {
  Cluster c = small_pod();
  NodeSet set = node_set(pod_nodes());
  NodeJoin j = join_nodes(set, &c);
  CHECK(j.joined);
  REQUIRE(j.hosts.size() == 8);
  for (const HostJoin& h : j.hosts) {
    CHECK(h.host >= 0);
    for (const GpuPath& p : h.gpus) {
      CHECK(p.hca >= 0);
      CHECK(p.rail == "mlx5_" + std::to_string(p.gpu));
      int su = set.nodes[h.node].hostname < "dgx005" ? 1 : 2;
      CHECK(p.leaves == std::vector<std::string>{"su" + std::to_string(su) + "-rail" + std::to_string(p.gpu)});
    }
  }
  CHECK(j.anomalies.empty());
}

TEST_CASE("join: a miscabled rail puts GPU k of that host on another unit's leaf") {
  Cluster c = small_pod({.miscable_rail = {{"dgx002", 1}}});
  NodeJoin j = join_nodes(node_set(pod_nodes()), &c);
  auto rail = of_kind(j, NodeAnomaly::Kind::RailLeaf);
  REQUIRE(rail.size() == 1);
  CHECK(rail[0]->subject == "dgx002");
  CHECK(rail[0]->detail.find("GPU 1 → mlx5_1 (rail mlx5_1) → su2-rail1") == 0);
  CHECK(rail[0]->detail.find("→ su1-rail1") != std::string::npos);
}

TEST_CASE("join: NICs in another order than the GPUs' rails (names and GUIDs swapped)") {
  auto nodes = pod_nodes();
  std::swap(nodes[2].nics[1].name, nodes[2].nics[2].name);  // dgx003: mlx5_2 sits on GPU 1's switch
  std::swap(nodes[2].nics[1].node_guid, nodes[2].nics[2].node_guid);
  Cluster c = small_pod();
  NodeJoin j = join_nodes(node_set(nodes), &c);
  auto rail = of_kind(j, NodeAnomaly::Kind::RailLeaf);
  REQUIRE(rail.size() == 2);
  CHECK(rail[0]->subject == "dgx003");
  CHECK(rail[0]->detail.find("GPU 1 → mlx5_2 (rail mlx5_2) → su1-rail2") == 0);
  CHECK(rail[1]->detail.find("GPU 2 → mlx5_1 (rail mlx5_1) → su1-rail1") == 0);
  // NCCL_IB_HCA is a set: the same NICs in another order need no other list (rail-leaf is the finding).
  CHECK(of_kind(j, NodeAnomaly::Kind::ClassLayout).empty());
  CHECK(of_kind(j, NodeAnomaly::Kind::NicIdentity).empty());  // names agree with the fabric
}

TEST_CASE("join: a host of the class whose GPU reaches another NIC, or over another path, is class-layout") {
  auto nodes = pod_nodes();
  nodes[2].nics[1].name = "mlx5_9";  // dgx003: another NIC set
  nodes[4].gpu_nic[3][3] = PathClass::NODE;  // dgx005: GPU 3's NIC off its switch
  NodeJoin j = join_nodes(node_set(nodes), nullptr);
  auto layout = of_kind(j, NodeAnomaly::Kind::ClassLayout);
  REQUIRE(layout.size() == 2);
  CHECK(layout[0]->subject == "dgx003");
  CHECK(layout[0]->detail.find("GPU 1→mlx5_9 PIX where most of dgx[001-008] have GPU 1→mlx5_1 PIX") == 0);
  CHECK(layout[1]->subject == "dgx005");
}

TEST_CASE("join: on a 1-1 tie class-layout names the host emit nodes' NCCL_IB_HCA comment names") {
  // Two hosts, two layouts: the class's first host (n1) is the usual one, whichever layout sorts
  // first, so inspect and emit nodes blame the same host (n2).
  std::vector<NodeInventory> nodes{dgx_like("n1", 0, 2), dgx_like("n2", 1, 2)};
  nodes[0].nics[1].name = "mlx5_7";
  const NodeSet set = node_set(nodes);
  NodeJoin j = join_nodes(set, nullptr);
  auto layout = of_kind(j, NodeAnomaly::Kind::ClassLayout);
  REQUIRE(layout.size() == 1);
  CHECK(layout[0]->subject == "n2");
  CHECK(layout[0]->detail ==
        "GPU 1→mlx5_1 PIX where n1 has (no layout is most of n[1-2]'s; the class follows its first host) GPU 1→mlx5_7 PIX: "
        "the class's NCCL_IB_HCA list does not describe it");
}

TEST_CASE("join: hwloc's name disagreeing with the fabric's description is reported") {
  auto nodes = pod_nodes();
  std::swap(nodes[0].nics[0].node_guid, nodes[0].nics[1].node_guid);  // only the GUIDs
  Cluster c = small_pod();
  NodeJoin j = join_nodes(node_set(nodes), &c);
  auto id = of_kind(j, NodeAnomaly::Kind::NicIdentity);
  REQUIRE(id.size() == 2);
  CHECK(id[0]->detail.find("hwloc's mlx5_0 is mlx5_1 in the fabric") == 0);
}

TEST_CASE("join: a node file describing another host, and a host the fabric lacks") {
  auto nodes = pod_nodes();
  NodeInventory stray = dgx_like("dgx099", 60, 4);  // GUIDs the fabric does not have
  nodes[3] = dgx_like("dgx004", 4, 4);              // carries dgx005's GUIDs
  nodes.push_back(stray);
  Cluster c = small_pod();
  NodeJoin j = join_nodes(node_set(nodes), &c);
  auto id = of_kind(j, NodeAnomaly::Kind::NicIdentity);
  REQUIRE(!id.empty());
  CHECK(id[0]->subject == "dgx004");
  CHECK(id[0]->detail.find("belongs to dgx005 in the fabric") != std::string::npos);
  auto missing = of_kind(j, NodeAnomaly::Kind::NotInFabric);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0]->subject == "dgx099");
  CHECK(missing[0]->detail.find("host not in the fabric") == 0);
}

TEST_CASE("join: a GPU's NIC missing from the fabric (uncabled)") {
  Cluster c = small_pod({.remove_cables = {{"dgx006 mlx5_3", "su2-rail3"}}});
  NodeJoin j = join_nodes(node_set(pod_nodes()), &c);
  auto missing = of_kind(j, NodeAnomaly::Kind::NotInFabric);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0]->subject == "dgx006");
  CHECK(missing[0]->detail.find("GPU 3's mlx5_3 (0xb83fd20300c00053)") == 0);
}
