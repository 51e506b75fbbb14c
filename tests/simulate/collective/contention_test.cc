// Contention is real: every expected number here is derived in the test from the fabric's
// cables, LIDs and the profile's NICs, not read back from the model.
#include "simulate/collective/contention.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "tests/simulate/simulate_fixtures.h"

using namespace slurmtopo;
using slurmtopo::testing::one_rail;
using slurmtopo::testing::oversubscribed_hdr_tree;

namespace {

// Two leaves of 8 hosts, each leaf 4 uplinks (2:1), 4 spines, HDR: radix 12 → 8 down, 4 up.
Cluster two_to_one() { return oversubscribed_hdr_tree(16); }

AlgorithmBandwidth ring_on(const FabricModel& fabric, const std::vector<std::string>& hosts, const HardwareProfile& h) {
  return simulate_contention(fabric, resolve_placement(fabric.cluster(), hosts, h), h, Collective::AllReduce)
      .by_algorithm[static_cast<int>(Algorithm::Ring)];
}

double cable_gbs(const Cluster& c) { return c.fabrics[0].links.front().gbps() / 8 * kCableEfficiency; }

int leaf_of(const Cluster& c, const std::string& host) {
  return c.hcas[c.hosts[c.host_index(host)].hcas.front()].switches.front();
}

uint16_t lid_of(const Cluster& c, const std::string& host) {
  const Hca& hca = c.hcas[c.hosts[c.host_index(host)].hcas.front()];
  return c.fabrics[hca.fabric].find(hca.guid)->lid;
}

}  // namespace

TEST_CASE("contention: a ring in rank order crosses a 2:1 leaf boundary once each way and loses nothing") {
  const Cluster c = two_to_one();
  const HardwareProfile h = one_rail();
  const FabricModel fabric(c, RoutingKind::MinHop);
  std::vector<std::string> hosts;
  for (const Host& host : c.hosts) hosts.push_back(host.name);
  REQUIRE(hosts.size() == 16);
  REQUIRE(leaf_of(c, hosts[0]) != leaf_of(c, hosts[15]));
  const AlgorithmBandwidth ring = ring_on(fabric, hosts, h);
  // Each NIC carries its 16 channels at full speed: busBw = the NIC.
  CHECK(ring.raw_bw == doctest::Approx(h.nic_gbs));
  CHECK(ring.free_raw_bw == doctest::Approx(h.nic_gbs));
}

TEST_CASE("contention: a ring alternating between two 2:1 leaves loses what the uplinks cannot carry") {
  const Cluster c = two_to_one();
  const HardwareProfile h = one_rail();
  // Host order A1 B1 A2 B2 …: every hop crosses between the leaves.
  std::vector<std::string> hosts;
  for (int i = 0; i < 8; ++i) {
    hosts.push_back(c.hosts[i].name);
    hosts.push_back(c.hosts[8 + i].name);
  }
  const int leaf = leaf_of(c, hosts[0]);
  const int uplinks = c.switches[leaf].uplinks;
  REQUIRE(uplinks == 4);
  // 8 hosts of a leaf send up at once through 4 uplinks (and down through 4 cables into the
  // other leaf): each gets 4 × cable / 8, below its NIC's 24 GB/s.
  const double expected = std::min(h.nic_gbs, uplinks * cable_gbs(c) / 8);
  CHECK(expected == doctest::Approx(12.25));

  SUBCASE("adaptive routing spreads every flow evenly: exactly the uplinks' share") {
    const FabricModel fabric(c, RoutingKind::Adaptive);
    const AlgorithmBandwidth ring = ring_on(fabric, hosts, h);
    CHECK(ring.raw_bw == doctest::Approx(expected));
    CHECK(ring.free_raw_bw == doctest::Approx(h.nic_gbs));  // what NCCL expects
    REQUIRE_FALSE(ring.bottlenecks.empty());
    // A cable offered twice what NCCL expects to send through it, nearly twice its capacity.
    CHECK(ring.bottlenecks.front().resource.find("->") != std::string::npos);
    CHECK(ring.bottlenecks.front().oversubscription == doctest::Approx(2 * h.nic_gbs / cable_gbs(c)));
    CHECK(ring.bottlenecks.front().load_gbs == doctest::Approx(cable_gbs(c)));
  }
  SUBCASE("static D-mod-K routing does no better") {
    const FabricModel fabric(c, RoutingKind::MinHop);
    const AlgorithmBandwidth ring = ring_on(fabric, hosts, h);
    CHECK(ring.raw_bw <= doctest::Approx(expected));
    CHECK(ring.free_raw_bw == doctest::Approx(h.nic_gbs));
  }
}

TEST_CASE("contention: two flows that D-mod-K routing puts on one uplink share it") {
  const Cluster c = two_to_one();
  const HardwareProfile h = one_rail();
  const FabricModel fabric(c, RoutingKind::MinHop);
  const int uplinks = c.switches[leaf_of(c, c.hosts[0].name)].uplinks;
  // Destinations on leaf B whose LIDs agree modulo the uplink count leave leaf A on the same
  // uplink (and so reach B through the same spine and cable); others do not.
  std::vector<std::string> b;
  for (int i = 8; i < 16; ++i) b.push_back(c.hosts[i].name);
  std::string b1 = b[0], same, other;
  for (size_t i = 1; i < b.size(); ++i) {
    if (same.empty() && lid_of(c, b[i]) % uplinks == lid_of(c, b1) % uplinks) same = b[i];
    if (other.empty() && lid_of(c, b[i]) % uplinks != lid_of(c, b1) % uplinks) other = b[i];
  }
  REQUIRE_FALSE(same.empty());
  REQUIRE_FALSE(other.empty());
  const std::string a1 = c.hosts[0].name, a2 = c.hosts[1].name;

  // The routes agree: both flows up from A leave on one cable.
  auto first_uplink = [&](const std::string& from, const std::string& to) {
    const auto paths = fabric.routing().route(c.hosts[c.host_index(from)].hcas.front(), c.hosts[c.host_index(to)].hcas.front());
    REQUIRE(paths.size() == 1);
    return fabric.cables().index(paths.front().links.at(1));
  };
  CHECK(first_uplink(a1, b1) == first_uplink(a2, same));
  CHECK(first_uplink(a1, b1) != first_uplink(a2, other));

  // Ring a1 → b1 → a2 → X → a1: the flows a1→b1 and a2→X go up from leaf A together.
  const AlgorithmBandwidth shared = ring_on(fabric, {a1, b1, a2, same}, h);
  const AlgorithmBandwidth apart = ring_on(fabric, {a1, b1, a2, other}, h);
  CHECK(shared.raw_bw == doctest::Approx(cable_gbs(c) / 2));  // 12.25: half a cable each
  CHECK(apart.raw_bw == doctest::Approx(h.nic_gbs));          // NIC-bound again
  CHECK(shared.free_raw_bw == doctest::Approx(h.nic_gbs));    // NCCL cannot tell them apart
  REQUIRE_FALSE(shared.bottlenecks.empty());
  CHECK(shared.bottlenecks.front().oversubscription == doctest::Approx(2 * h.nic_gbs / cable_gbs(c)));
  CHECK(shared.bottlenecks.front().flows == doctest::Approx(2 * 16));  // two hosts' 16 channels
}

TEST_CASE("contention: inside one node") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 4;
  const Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  const FabricModel fabric(c, RoutingKind::MinHop);

  SUBCASE("a ring gets every GPU's NVLink; NVLS its NVLink share per byte of result") {
    const HardwareProfile h = load_profile("h100-ndr");
    const Contention r = simulate_contention(fabric, resolve_placement(c, {"gpu001"}, h), h, Collective::AllReduce);
    CHECK(r.by_algorithm[0].raw_bw == doctest::Approx(h.nvlink_gbs()));
    const AlgorithmBandwidth& nvls = r.by_algorithm[static_cast<int>(Algorithm::Nvls)];
    CHECK(nvls.modelled);
    // Each GPU moves (1 + 1/G)·S through its port each way.
    CHECK(nvls.raw_bw == doctest::Approx(h.nvlink_gbs() * h.nvls_efficiency * 8 / 9));
    CHECK(nvls.bottlenecks.front().resource.find("gpu001 GPU") == 0);
    const Contention ag = simulate_contention(fabric, resolve_placement(c, {"gpu001"}, h), h, Collective::AllGather);
    CHECK(ag.by_algorithm[static_cast<int>(Algorithm::Nvls)].raw_bw ==
          doctest::Approx(h.nvlink_gbs() * h.nvls_efficiency));
  }
  SUBCASE("GPUs without NVLink ring over PCIe") {
    HardwareProfile h = load_profile("a100-hdr");
    h.nvlink_links = 0;
    h.nvswitch = false;
    const Contention r = simulate_contention(fabric, resolve_placement(c, {"gpu001"}, h), h, Collective::AllReduce);
    CHECK(r.by_algorithm[0].raw_bw == doctest::Approx(24));  // Gen4 x16 as NCCL counts it
    CHECK(r.by_algorithm[0].bottlenecks.front().resource.find("PCIe") != std::string::npos);
  }
}

TEST_CASE("contention: PCIe slower than the NIC holds the NIC back, and says so") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 4;
  const Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  const FabricModel fabric(c, RoutingKind::MinHop);
  HardwareProfile h = load_profile("h100-ndr");
  h.nics_per_node = 1;
  h.pcie_gen = 4;  // 24 GB/s to a 48 GB/s NIC
  const Contention r = simulate_contention(fabric, resolve_placement(c, {"gpu001", "gpu002"}, h), h, Collective::AllReduce);
  CHECK(r.by_algorithm[0].raw_bw == doctest::Approx(24));
  CHECK(r.by_algorithm[0].bottlenecks.front().resource.find("PCIe GPU->NIC") != std::string::npos);
}

TEST_CASE("contention: a double binary tree between nodes gets half of each NIC") {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 8;
  const Cluster c = build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  const FabricModel fabric(c, RoutingKind::MinHop);
  const HardwareProfile h = load_profile("h100-ndr");
  std::vector<std::string> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back(c.hosts[i].name);
  const Contention r = simulate_contention(fabric, resolve_placement(c, hosts, h), h, Collective::AllReduce);
  // NCCL: tree busBw = channels × per-channel NIC share = 8 NICs × 48; an inner node of one
  // tree sends on 3 edges and the leaf of the other on 1: 4 flows per NIC for its 2 channels.
  const AlgorithmBandwidth& tree = r.by_algorithm[static_cast<int>(Algorithm::Tree)];
  CHECK(tree.raw_bw == doctest::Approx(8 * 48));
  CHECK(r.by_algorithm[0].raw_bw == doctest::Approx(8 * 48));  // ring: every NIC at full speed
  const AlgorithmBandwidth& nvlstree = r.by_algorithm[static_cast<int>(Algorithm::NvlsTree)];
  CHECK(nvlstree.modelled);
  CHECK(nvlstree.raw_bw == doctest::Approx(8 * 48 / 2.0));  // the tree's algorithm bandwidth
}

TEST_CASE("contention: placements name hosts the fabric has, once each") {
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 8;
  spec.hosts = 4;
  const Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  const HardwareProfile h = load_profile("h100-ndr");
  CHECK_THROWS_WITH_AS(resolve_placement(c, {"gpu001", "gpu999"}, h), doctest::Contains("`gpu999` is not in it"),
                       InputError);
  CHECK_THROWS_WITH_AS(resolve_placement(c, {"gpu001", "gpu001"}, h), doctest::Contains("named twice"), InputError);
  // One HCA for eight NICs: rails share it, and the placement says so.
  const Placement p = resolve_placement(c, {"gpu001", "gpu002"}, h);
  CHECK(p.rails[0] == std::vector<int>(8, c.hosts[0].hcas.front()));
  CHECK(p.warnings == std::vector<std::string>{"gpu[001-002]: 1 HCA for the profile's 8 NICs; rails share them"});
}

TEST_CASE("contention: NICs on separate subnets cannot form a ring") {
  FatTreeSpec a, b;
  a.levels = b.levels = 2;
  a.radix = b.radix = 8;
  a.hosts = b.hosts = 4;
  b.host_prefix = "other";
  b.switch_prefix = "b-";
  Fabric fa = generate_fattree(a), fb = generate_fattree(b);
  fb.name = "second";
  // Distinct GUIDs for the second subnet's nodes.
  for (auto& n : fb.nodes) n.guid += 0x100000;
  for (auto& l : fb.links) {
    l.a.guid += 0x100000;
    l.b.guid += 0x100000;
    if (l.a.port_guid) l.a.port_guid += 0x100000;
    if (l.b.port_guid) l.b.port_guid += 0x100000;
  }
  const Cluster c = build_cluster({fa, fb}, ClusterOptions{});
  const FabricModel fabric(c, RoutingKind::MinHop);
  HardwareProfile h = load_profile("h100-ndr");
  h.nics_per_node = 1;
  CHECK_THROWS_WITH_AS(simulate_contention(fabric, resolve_placement(c, {"gpu001", "other001"}, h), h, Collective::AllReduce),
                       doctest::Contains("cannot reach"), InputError);
}
