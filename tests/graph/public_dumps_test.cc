// What slurmtopo infers from every real dump in ../shared/fabrics/public, and why.
// The dumps stay in ../shared (provenance in its README.md); each case skips without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "base/atomic_write.h"
#include "base/files.h"
#include "discover/fabric_file.h"
#include "emit/topology_check.h"
#include "emit/topology_plan.h"
#include "discover/device_ids.h"
#include "graph/cluster_inputs.h"
#include "graph/link_ceilings.h"
#include "graph/slurm_tree.h"
#include "slurm/topology_conf.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {
const std::string kPublic = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/";

bool have(const std::string& rel) {
  if (std::filesystem::exists(kPublic + rel)) return true;
  slurmtopo::testing::skip(kPublic + rel + " is absent (../shared is beside the repository in CI)");
  return false;
}

Cluster load(const std::string& rel, const std::string& map = "") {
  ClusterInputs in;
  in.fabric_files = {kPublic + rel};
  if (!map.empty()) in.name_map = kPublic + map;
  return load_cluster(in);
}

std::map<int, int> levels(const Cluster& c) {
  std::map<int, int> out;
  for (const auto& s : c.switches) ++out[s.level];
  return out;
}

int anomalies(const Cluster& c, Anomaly::Kind kind) {
  return static_cast<int>(std::count_if(c.anomalies.begin(), c.anomalies.end(),
                                        [&](const Anomaly& a) { return a.kind == kind; }));
}

int unresolved(const Cluster& c) {
  return static_cast<int>(std::count_if(c.hcas.begin(), c.hcas.end(), [](const Hca& h) { return !h.unresolved.empty(); }));
}

int slurm_level(const SlurmTree& t, int level) {
  return static_cast<int>(std::count_if(t.switches.begin(), t.switches.end(), [&](const SlurmSwitch& s) { return s.level == level; }));
}
}  // namespace

TEST_CASE("public dump topograph/example.out: rail-optimized DGX H100 fabric with SHARP on every switch") {
  if (!have("topograph/example.out")) return;
  Cluster c = load("topograph/example.out");
  // 31 leaves carry HCAs; the 9 spines carry only their SHARP aggregation node, which is
  // never a host, so they stay spines.
  CHECK(levels(c) == std::map<int, int>{{1, 31}, {2, 9}});
  CHECK(c.aggregation_nodes == 40);
  // 69 HCAs say "MT4129 ConnectX7 ...", 3 say "localhost HCA-n" and 2 "ubuntu mlx5_n": never
  // host names.
  CHECK(unresolved(c) == 74);
  // Leaves are named <hall>-P1-IBLEAF-<rail>-<unit>: each unit's rail leaves serve the same
  // DGXs, so 8 units become 8 Slurm leaves. Unit 01 shows 3 leaves: IBLEAF-03-01 is absent.
  REQUIRE(c.groups.size() == 8);
  std::map<std::string, size_t> leaves_per_group;
  for (const auto& g : c.groups) leaves_per_group[g.name] = g.leaves.size();
  CHECK(leaves_per_group["A09-P1-IBLEAF-x-01"] == 3);
  CHECK(leaves_per_group["A09-P1-IBLEAF-x-03"] == 4);
  CHECK(leaves_per_group["B09-P1-IBLEAF-x-08"] == 4);
  int hosts = 0;
  for (const auto& g : c.groups) hosts += static_cast<int>(g.hosts.size());
  CHECK(hosts == 120);  // "ubuntu" is no host name
  // 9 spines x 2 cables = 18 uplinks per leaf; 12 leaves have lost some (14-17 left).
  CHECK(anomalies(c, Anomaly::Kind::MissingUplinks) == 12);
  // The UFM appliance sits in unit 08 with 2 of its 4 rails: a partial host.
  CHECK(anomalies(c, Anomaly::Kind::PartialHost) >= 1);
  SlurmTree t = build_slurm_tree(c);
  CHECK(slurm_level(t, 1) == 8);
  CHECK(slurm_level(t, 2) == 1);  // the 9 spines: one switch to Slurm
  CHECK(t.roots().size() == 1);
}

namespace {
const Anomaly* find_anomaly(const Cluster& c, Anomaly::Kind kind, const std::string& subject) {
  for (const auto& a : c.anomalies)
    if (a.kind == kind && a.subject == subject) return &a;
  return nullptr;
}
bool says(const Anomaly* a, const std::string& part) { return a && a->detail.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("public dump topograph/example.out: rails, crossed cables, the absent leaf, lost uplinks, names") {
  if (!have("topograph/example.out")) return;
  const Cluster c = load("topograph/example.out");
  // HCA-1/2/5/6 on some units, mlx5_0/1/4/5 on unit 04: four rails by position, not eight names.
  REQUIRE(c.rails.size() == 4);
  CHECK(c.rails[2].hca_names.front() == "HCA-5");
  CHECK(std::count(c.rails[2].hca_names.begin(), c.rails[2].hca_names.end(), "mlx5_4") == 1);
  // b08-p1-dgx-08-c01: HCA-5 on the rail-4 leaf and HCA-6 on the rail-3 leaf of unit 08.
  const Anomaly* crossed = find_anomaly(c, Anomaly::Kind::CrossedRails, "b08-p1-dgx-08-c01");
  REQUIRE(crossed);
  CHECK(says(crossed, "HCA-5 is cabled to B09-P1-IBLEAF-04-08["));
  CHECK(says(crossed, "HCA-6 to B09-P1-IBLEAF-03-08["));
  CHECK(anomalies(c, Anomaly::Kind::CrossedRails) == 1);
  // Unit 01 has no rail-3 leaf: A09-P1-IBLEAF-03-01 is absent from the dump.
  const Anomaly* missing = find_anomaly(c, Anomaly::Kind::MissingLeaf, "A09-P1-IBLEAF-x-01");
  REQUIRE(missing);
  CHECK(says(missing, "no leaf for rail 3 (HCA-5"));
  CHECK(says(missing, "A09-P1-IBLEAF-03-01 is absent"));
  CHECK(anomalies(c, Anomaly::Kind::MissingLeaf) == 1);
  // Which spines lost cables to a leaf, not only how many.
  const Anomaly* uplinks = find_anomaly(c, Anomaly::Kind::MissingUplinks, "A09-P1-IBLEAF-01-02");
  REQUIRE(uplinks);
  CHECK(says(uplinks, "0 of 2 cables to A10-P1-IBSPINE-01, A10-P1-IBSPINE-04"));
  // The UFM server reaches 2 of unit 08's 4 leaves; "ubuntu" is no host name.
  CHECK(says(find_anomaly(c, Anomaly::Kind::PartialHost, "B11-P1-CUFM-02"), "2 of its unit's 4 rails"));
  CHECK(c.host_index("ubuntu") < 0);
  const Anomaly* leaf08 = find_anomaly(c, Anomaly::Kind::UnresolvedHca, "B09-P1-IBLEAF-03-08");
  CHECK(says(leaf08, "\"ubuntu mlx5_0\" [21]"));
  // Unresolved HCAs: one line per leaf, not 74.
  std::set<std::string> leaves;
  for (const auto& h : c.hcas)
    if (!h.unresolved.empty() && !h.switches.empty()) leaves.insert(c.switches[h.switches.front()].name);
  CHECK(anomalies(c, Anomaly::Kind::UnresolvedHca) == static_cast<int>(leaves.size()));
  CHECK(leaves.size() < 30);
}

TEST_CASE("public dump topograph/example-bad.out: one GB200 CA and no switch gives nothing to write") {
  if (!have("topograph/example-bad.out")) return;
  Cluster c = load("topograph/example-bad.out");
  CHECK(c.switches.empty());
  CHECK(c.groups.empty());
  TopologyPlan plan = plan_topology(c, {});
  CHECK_FALSE(plan.check.ok());  // refused: slurmctld would run without topology
}

TEST_CASE("public dump psmn_x5: factory HCA descriptions, names from the map, irregular spines") {
  if (!have("psmn_x5/X5.topofile")) return;
  Cluster bare = load("psmn_x5/X5.topofile");
  // Every HCA says "MT25408 ConnectX Mellanox Technologies": without the map, no hosts.
  CHECK(bare.groups.empty());
  CHECK(unresolved(bare) == 89);
  Cluster c = load("psmn_x5/X5.topofile", "psmn_x5/X5.map");
  CHECK(unresolved(c) == 3);  // three GUIDs the map does not list
  CHECK(levels(c) == std::map<int, int>{{1, 6}, {2, 4}, {3, 1}});
  CHECK(c.groups.size() == 6);
  // Non-unique "Voltaire 4036 - 36 QDR ports switch" descriptions fall back to GUID names.
  CHECK(std::any_of(c.switches.begin(), c.switches.end(), [](const SwitchInfo& s) { return s.name == "sw-0008f10500200b50"; }));
  // The level-3 switch joins nothing the level-2 ones do not: Slurm sees 6 leaves + 1 root.
  SlurmTree t = build_slurm_tree(c);
  CHECK(slurm_level(t, 1) == 6);
  CHECK(t.switches.size() == 7);
  // Voltaire-4036-4036-8BBA (4 gluster servers, 2 compute nodes) has 1 of its peers' 3 cables
  // to each of the four spines alike: 6 hosts on 4 uplinks, less oversubscribed than its peers'
  // 24 on 12. Built thinner, not a leaf that lost cables.
  CHECK(anomalies(c, Anomaly::Kind::MissingUplinks) == 0);
  // 23 MT26418 ConnectX HCAs (0x6732) run 4xDDR on the QDR switches: DDR is the most they can
  // do, so mixed generations, not 23 degraded cables (what slurmtopo said before issue 25).
  CHECK(anomalies(c, Anomaly::Kind::DegradedLink) == 0);
  CHECK(anomalies(c, Anomaly::Kind::SlowLinkGroup) == 0);
  const LinkRateCount* ddr = nullptr;
  for (const auto& r : c.link_rates)
    if (r.why.find("ConnectX MT26418 0x6732 supports DDR at most") != std::string::npos) ddr = &r;
  REQUIRE(ddr != nullptr);
  CHECK(ddr->cables == 23);
  CHECK(rate_text(ddr->width, ddr->speed) == "4xDDR");
  CHECK(ddr->why.find("mixed generations") != std::string::npos);
  // The Voltaire 4036 switches (vendor 0x8f1, device 0x5a5a) are in no public table: listed once.
  REQUIRE(c.unknown_devices.size() == 1);
  CHECK(device_label(c.unknown_devices[0].vendor_id, c.unknown_devices[0].device_id) == "vendor 0x0008f1 device 0x5a5a");
  CHECK(c.unknown_devices[0].nodes == 9);
}

TEST_CASE("public dump psmn_x5: the topology.conf another generator made is not a tree") {
  if (!have("psmn_x5/X5.topology.conf")) return;
  std::string text;
  REQUIRE(read_file_if_exists(kPublic + "psmn_x5/X5.topology.conf", text));
  TopologyCheck check = check_topology(parse_topology_conf(text, "X5.topology.conf"), {});
  // ibmap2slurm.py listed spines as children of each other: slurmctld refuses the cycle.
  bool cycle = std::any_of(check.errors.begin(), check.errors.end(),
                           [](const TopologyIssue& i) { return i.message.find("not a tree") != std::string::npos; });
  CHECK(cycle);
}

TEST_CASE("public dump superbench: director switch modules are levels, not one switch") {
  if (!have("superbench/ib_traffic_topo_aware_ibnetdiscover.txt")) return;
  Cluster c = load("superbench/ib_traffic_topo_aware_ibnetdiscover.txt");
  // ToRs (MQM8700) at level 1, the MCS8500's line modules L01/L02 at 2, its spine module at 3;
  // the modules share one system image GUID but are separate switches.
  CHECK(levels(c) == std::map<int, int>{{1, 5}, {2, 2}, {3, 1}});
  CHECK(c.aggregation_nodes == 1);
  // The SHARP aggregation node has no block of its own in this hand-made dump, only the cable
  // end on the director's spine module: it lives on the switch's internal port, so no cable and
  // no host is missing, and the sweep is not called partial.
  CHECK(anomalies(c, Anomaly::Kind::PartialSweep) == 0);
  CHECK(c.anomalies.empty());
  CHECK(c.groups.size() == 5);
  SlurmTree t = build_slurm_tree(c);
  CHECK(t.switches.size() == 8);
  CHECK(t.switches[t.roots().front()].name == "rmd70-0101-0908-01ib1-A-S01");
}

TEST_CASE("public dump synthetic_fattree k-4-n-3: 4-ary 3-tree") {
  if (!have("synthetic_fattree/k-4-n-3-Full.topo")) return;
  Cluster c = load("synthetic_fattree/k-4-n-3-Full.topo");
  // FatTreeBuilder.py k=4, n=3: 32 leaves of 4 hosts, 32 middle switches, 16 at the top.
  CHECK(levels(c) == std::map<int, int>{{1, 32}, {2, 32}, {3, 16}});
  CHECK(c.hosts.size() == 128);
  SlurmTree t = build_slurm_tree(c);
  // Each pod's middle switches serve the same 4 leaves: 8 pods, then one switch for the top.
  CHECK(slurm_level(t, 1) == 32);
  CHECK(slurm_level(t, 2) == 8);
  CHECK(slurm_level(t, 3) == 1);
  CHECK(c.anomalies.empty());
}

TEST_CASE("public dump ibtopotool 1.topo: man-page example, all HCAs unnamed, one 1x link") {
  if (!have("ibtopotool_tests/1.topo")) return;
  Cluster c = load("ibtopotool_tests/1.topo");
  CHECK(levels(c) == std::map<int, int>{{1, 2}});  // both switches carry HCAs
  CHECK(unresolved(c) == 4);                         // "MT23108 InfiniHost Mellanox Technologies"
  // Two lab switches cabled to each other with nothing above them: that is the fabric's design,
  // not a cable bypassing a tree (leaf-to-leaf needs switches above the leaves).
  CHECK(anomalies(c, Anomaly::Kind::LeafToLeaf) == 0);
  // The 1xSDR switch link and HCA port: the Voltaire switches' ids say nothing of what they
  // support, so each is judged against the cables between the same devices, which run 4x.
  CHECK(anomalies(c, Anomaly::Kind::DegradedLink) == 2);
  for (const auto& a : c.anomalies)
    if (a.kind == Anomaly::Kind::DegradedLink)
      CHECK(a.detail.find(" 4x (what these devices support is not known)") != std::string::npos);
}

TEST_CASE("public dump ibtopotool 3.topo: partial sweep, loopbacks, two leaves joined with nothing above") {
  if (!have("ibtopotool_tests/3.topo")) return;
  Cluster c = load("ibtopotool_tests/3.topo");
  CHECK(anomalies(c, Anomaly::Kind::PartialSweep) == 1);  // the umad timeout line
  CHECK(anomalies(c, Anomaly::Kind::Loopback) == 3);
  CHECK(anomalies(c, Anomaly::Kind::LeafToLeaf) == 0);  // no switch above the two: no tree to bypass
  // ConnectX-2 at QDR, ConnectX-3 at FDR, the SX6012 (SwitchX, FDR) at FDR to the Switch-IB: each
  // as fast as its slower end. Only r-ufm96's ConnectX-4 runs SDR where both ends do FDR.
  std::vector<const Anomaly*> degraded;
  for (const auto& a : c.anomalies)
    if (a.kind == Anomaly::Kind::DegradedLink) degraded.push_back(&a);
  REQUIRE(degraded.size() == 1);
  CHECK(degraded[0]->subject == "r-ufm96 HCA-1 - switch-de779e[8]");
  CHECK(degraded[0]->detail == "4xSDR; both ends support 4xFDR (ConnectX-4 0x1013, SwitchX 0xc738)");
  CHECK(anomalies(c, Anomaly::Kind::SlowLinkGroup) == 0);
  CHECK(c.unknown_devices.empty());
  CHECK(c.hosts.size() == 5);  // r-ufm101 has two HCAs: one host
  SlurmTree t = build_slurm_tree(c);
  // Two leaves joined by one cable: one fabric, so one root for it.
  REQUIRE(t.roots().size() == 1);
  CHECK(t.switches[t.roots().front()].name == "3-root");
}

TEST_CASE("public dumps ibtopotool 2.topo and 4.topo: one switch, a leaf of its own") {
  for (const char* rel : {"ibtopotool_tests/2.topo", "ibtopotool_tests/4.topo"}) {
    if (!have(rel)) return;
    Cluster c = load(rel);
    CHECK(c.switches.size() == 1);
    CHECK(c.groups.size() == 1);
    CHECK(c.anomalies.empty());
  }
}

TEST_CASE("public dumps: every emitted topology.conf passes Slurm's checks and is deterministic") {
  struct Case { const char* fabric; const char* map; };
  for (Case k : {Case{"topograph/example.out", ""}, Case{"psmn_x5/X5.topofile", "psmn_x5/X5.map"},
                 Case{"superbench/ib_traffic_topo_aware_ibnetdiscover.txt", ""},
                 Case{"synthetic_fattree/k-4-n-3-Full.topo", ""}, Case{"ibtopotool_tests/2.topo", ""},
                 Case{"ibtopotool_tests/3.topo", ""}, Case{"ibtopotool_tests/4.topo", ""}}) {
    CAPTURE(k.fabric);
    if (!have(k.fabric)) return;
    TopologyPlan a = plan_topology(load(k.fabric, k.map), {});
    TopologyPlan b = plan_topology(load(k.fabric, k.map), {});
    CHECK(a.check.ok());
    CHECK(a.check.warnings.empty());
    CHECK(a.text == b.text);
  }
}

// Issue 25: a cable is degraded only when it runs below what both its ends can do. Every dump:
// what it reports, and no degraded-link on a cable the device table says runs at its best.
TEST_CASE("public dumps: degraded-link and slow-link-group, each against the device table") {
  struct Expect {
    const char* fabric;
    const char* map;
    int degraded, slow;
  };
  const Expect dumps[] = {
      {"topograph/example.out", "", 0, 0},      {"topograph/example-bad.out", "", 0, 0},
      {"superbench/ib_traffic_topo_aware_ibnetdiscover.txt", "", 0, 0},
      {"synthetic_fattree/k-4-n-3-Full.topo", "", 0, 0},
      {"ibtopotool_tests/1.topo", "", 2, 0},    {"ibtopotool_tests/2.topo", "", 0, 0},
      {"ibtopotool_tests/3.topo", "", 1, 0},    {"ibtopotool_tests/4.topo", "", 0, 0},
      {"psmn_x5/X5.topofile", "psmn_x5/X5.map", 0, 0},
  };
  for (const Expect& d : dumps) {
    if (!have(d.fabric)) return;
    INFO(d.fabric);
    const Cluster c = load(d.fabric, d.map);
    CHECK(anomalies(c, Anomaly::Kind::DegradedLink) == d.degraded);
    CHECK(anomalies(c, Anomaly::Kind::SlowLinkGroup) == d.slow);
    // Counted from the table alone: cables whose two ends are known parts, below the slower's best.
    int below_table = 0;
    for (const Fabric& f : c.fabrics)
      for (const Link& l : f.links) {
        const DeviceModel* a = find_device_model(*f.find(l.a.guid));
        const DeviceModel* b = find_device_model(*f.find(l.b.guid));
        if (!a || !b || l.a.guid == l.b.guid) continue;
        below_table += (l.width && l.width < std::min(a->best_width, b->best_width)) ||
                       (l.speed != LinkSpeed::Unknown && l.speed < std::min(a->best_speed, b->best_speed));
      }
    int against_ends = 0;
    for (const auto& a : c.anomalies)
      against_ends += a.kind == Anomaly::Kind::DegradedLink && a.detail.find("both ends support") != std::string::npos;
    CHECK(against_ends == below_table);
  }
}
