// Rails by position in the unit, crossed rails, a unit's missing leaf, partial hosts, named
// uplink losses: on generated rail-optimized fabrics with each fault injected.
#include "graph/rail_positions.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"

using namespace slurmtopo;

namespace {

RailOptimizedSpec two_units() {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  return spec;
}

Cluster build(Fabric f) {
  std::vector<Fabric> fabrics;
  fabrics.push_back(std::move(f));
  return build_cluster(std::move(fabrics), ClusterOptions{});
}

std::vector<Anomaly> of_kind(const Cluster& c, Anomaly::Kind kind) {
  std::vector<Anomaly> out;
  for (const auto& a : c.anomalies)
    if (a.kind == kind) out.push_back(a);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("name slots: the n-th distinct number of a naming family") {
  CHECK(name_slots({"HCA-1", "HCA-2", "HCA-5", "HCA-6", "mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", ""}) ==
        std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, -1});
  CHECK(name_slots({"ib1", "ib0", "eth"}) == std::vector<int>{1, 0, 0});
}

TEST_CASE("rails: by the leaf an HCA reaches, not its name (mlx5_n here, HCA-n there)") {
  Fabric f = generate_rail_optimized(two_units());
  static const char* kDgx[] = {"HCA-1", "HCA-2", "HCA-5", "HCA-6"};
  for (auto& n : f.nodes) {  // unit 2 names its HCAs the DGX way
    const auto at = n.description.find(" mlx5_");
    if (n.kind != NodeKind::Ca || at == std::string::npos) continue;
    const std::string host = n.description.substr(0, at);
    if (host >= "dgx005") n.description = host + " " + kDgx[std::stoi(n.description.substr(at + 6))];
  }
  const Cluster c = build(f);
  REQUIRE(c.rails.size() == 4);  // not 8
  CHECK(c.rails[2].hca_names == std::vector<std::string>{"HCA-5", "mlx5_2"});
  for (const auto& s : c.switches)
    if (s.role == SwitchRole::Leaf) CHECK(s.rail == s.name.back() - '0');  // su<k>-rail<r>
  CHECK(of_kind(c, Anomaly::Kind::CrossedRails).empty());
}

TEST_CASE("rails: a crossed pair of cables names both cables, the host, HCAs and switch ports") {
  Fabric f = generate_rail_optimized(two_units());
  apply_faults(f, parse_faults({}, {}, {"dgx002,1,2"}));
  const Cluster c = build(f);
  const auto crossed = of_kind(c, Anomaly::Kind::CrossedRails);
  REQUIRE(crossed.size() == 1);
  CHECK(crossed[0].subject == "dgx002");
  CHECK(contains(crossed[0].detail, "mlx5_1 is cabled to su1-rail2[2] and mlx5_2 to su1-rail1[2]"));
  CHECK(c.groups.size() == 2);  // still one unit per SU
  CHECK(c.rails.size() == 4);
}

TEST_CASE("rails: a unit with no leaf for one rail says which rail of which unit") {
  // su1-rail2 is absent from the sweep, as topograph's A09-P1-IBLEAF-03-01 is: the switch,
  // its cables and the HCAs only it reached.
  Fabric f = generate_rail_optimized(two_units());
  const auto leaf = std::find_if(f.nodes.begin(), f.nodes.end(),
                                 [](const FabricNode& n) { return n.description.find(";su1-rail2:") != std::string::npos; });
  REQUIRE(leaf != f.nodes.end());
  const uint64_t gone = leaf->guid;
  std::vector<uint64_t> orphans;
  for (const auto& l : f.links)
    if (l.a.guid == gone || l.b.guid == gone) {
      const uint64_t other = l.a.guid == gone ? l.b.guid : l.a.guid;
      if (f.find(other)->kind == NodeKind::Ca) orphans.push_back(other);
    }
  std::erase_if(f.links, [&](const Link& l) { return l.a.guid == gone || l.b.guid == gone; });
  std::erase_if(f.nodes, [&](const FabricNode& n) {
    return n.guid == gone || std::count(orphans.begin(), orphans.end(), n.guid);
  });
  const Cluster c = build(f);
  const auto missing = of_kind(c, Anomaly::Kind::MissingLeaf);
  REQUIRE(missing.size() == 1);
  CHECK(contains(missing[0].detail, "no leaf for rail 3 (mlx5_2)"));
  CHECK(contains(missing[0].detail, "su2-rail2"));
}

TEST_CASE("missing-uplinks names the upper switches with fewer cables than the leaf's peers have") {
  Fabric f = generate_rail_optimized(two_units());
  apply_faults(f, parse_faults({"su1-rail0,rail0-spine01"}, {}));
  const Cluster c = build(f);
  const auto uplinks = of_kind(c, Anomaly::Kind::MissingUplinks);
  REQUIRE(uplinks.size() == 1);
  CHECK(uplinks[0].subject == "su1-rail0");
  CHECK(contains(uplinks[0].detail, "of "));
  CHECK(contains(uplinks[0].detail, "cables to rail0-spine01"));
}

TEST_CASE("a compute host that lost half its rails is missing-rail, one named unlike its unit is a service host") {
  RailOptimizedSpec spec = two_units();
  spec.hosts_per_su = 8;  // three hosts of four with faults would leave no unit to compare with
  spec.radix = 32;
  Fabric f = generate_rail_optimized(spec);
  apply_faults(f, parse_faults({"dgx003 mlx5_0,su1-rail0", "dgx003 mlx5_1,su1-rail1", "dgx004 mlx5_3,su1-rail3"}, {}));
  // dgx002's HCAs renamed: a UFM server cabled into the unit on two rails, as topograph's
  // B11-P1-CUFM-02 is among b08-p1-dgx-08-c01…c18.
  apply_faults(f, parse_faults({"dgx002 mlx5_0,su1-rail0", "dgx002 mlx5_1,su1-rail1"}, {}));
  for (auto& n : f.nodes)
    if (n.description.rfind("dgx002 ", 0) == 0) n.description = "ufm-02 " + n.description.substr(7);
  const Cluster c = build(f);
  const auto partial = of_kind(c, Anomaly::Kind::PartialHost);
  REQUIRE(partial.size() == 1);
  CHECK(partial[0].subject == "ufm-02");
  CHECK(contains(partial[0].detail, "2 of its unit's 4 rails"));
  CHECK(contains(partial[0].detail, "left out of topology.conf"));
  const auto ufm = std::find_if(c.hosts.begin(), c.hosts.end(), [](const Host& h) { return h.name == "ufm-02"; });
  REQUIRE(ufm != c.hosts.end());
  CHECK(ufm->role == HostRole::Service);
  // dgx003 is named like its peers: a compute node that lost two cables, a fault to fix.
  const auto missing = of_kind(c, Anomaly::Kind::MissingRail);
  REQUIRE(missing.size() == 2);
  CHECK(missing[0].subject == "dgx003");
  CHECK(contains(missing[0].detail, "reaches 2 of its unit's 4 rails"));
  CHECK(missing[1].subject == "dgx004");  // one cable lost
  const auto dgx003 = std::find_if(c.hosts.begin(), c.hosts.end(), [](const Host& h) { return h.name == "dgx003"; });
  REQUIRE(dgx003 != c.hosts.end());
  CHECK(dgx003->role == HostRole::Compute);
}
