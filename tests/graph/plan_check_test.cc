// The fabric against its cabling plan: a generated rail-optimized fabric is the plan, the same
// fabric with a technician's fault injected (generate's --swap-cables, --move-cable,
// --remove-cable, --degrade-cable) is what was swept. Every fault is named once, with its fix,
// and a fabric equal to its plan gives no finding.
#include "graph/plan_check.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_faults.h"
#include "graph/cluster_cables.h"

using namespace slurmtopo;

namespace {

using K = Anomaly::Kind;

// 2 units of 4 hosts, 2 rails: leaves su1-rail0 … su2-rail1, hosts dgx001-dgx008.
Fabric fabric(const Faults& faults = {}) {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 2;
  spec.radix = 16;
  Fabric f = generate_rail_optimized(spec);
  apply_faults(f, faults);
  return f;
}

CablePlan plan_of(const Fabric& f) {
  CablePlan plan = cluster_cables(build_cluster({f}, ClusterOptions{}));
  plan.source = "plan.topo";
  return plan;
}

Cluster checked(const Fabric& swept, const CablePlan& plan) {
  ClusterOptions options;
  options.plans = {plan};
  return build_cluster({swept}, options);
}

std::vector<const Anomaly*> plan_findings(const Cluster& c) {
  std::vector<const Anomaly*> out;
  for (const auto& a : c.anomalies)
    if (finding_kind(a.kind).check == std::string("fabric.plan")) out.push_back(&a);
  return out;
}

SwitchPort port(const char* name, int p) { return {name, p}; }

}  // namespace

TEST_CASE("plan: a fabric equal to its plan gives no finding, every cable present") {
  const Cluster c = checked(fabric(), plan_of(fabric()));
  CHECK(plan_findings(c).empty());
  REQUIRE(c.plan_checks.size() == 1);
  CHECK(c.plan_checks[0].planned == c.plan_checks[0].present);
  CHECK(c.plan_checks[0].planned == c.plan_checks[0].fabric_cables);
  CHECK(c.plan_checks[0].planned > 16);
}

TEST_CASE("plan: two host cables swapped on a leaf are one finding: swap the cables in those two ports") {
  const Cluster c = checked(fabric({.swap_cables = {{port("su1-rail0", 1), port("su1-rail0", 2)}}}), plan_of(fabric()));
  const auto found = plan_findings(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->kind == K::PlanSwappedCables);
  CHECK(found[0]->subject == "su1-rail0 ports 1 and 2");
  CHECK(found[0]->count == 2);
  CHECK(found[0]->detail.find("dgx001 mlx5_0 is in su1-rail0 port 2 and dgx002 mlx5_0 in su1-rail0 port 1") !=
        std::string::npos);
  CHECK(found[0]->detail.ends_with("swap the cables in su1-rail0 ports 1 and 2"));
}

TEST_CASE("plan: a cable moved to a free port of the same leaf: move it back, naming both ports") {
  const Cluster c = checked(fabric({.move_cables = {{port("su1-rail0", 1), port("su1-rail0", 12)}}}), plan_of(fabric()));
  const auto found = plan_findings(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->kind == K::PlanWrongPort);
  CHECK(found[0]->subject == "su1-rail0[1] - dgx001 mlx5_0");
  CHECK(found[0]->detail.find("the cable from dgx001 mlx5_0 is in su1-rail0 port 12, the plan has su1-rail0 port 1") !=
        std::string::npos);
  CHECK(found[0]->detail.ends_with("move the cable in su1-rail0 port 12 to port 1"));
}

TEST_CASE("plan: a cable on another leaf is a wrong device, with where its end goes") {
  const Cluster c = checked(fabric({.move_cables = {{port("su1-rail0", 1), port("su2-rail0", 12)}}}), plan_of(fabric()));
  const auto found = plan_findings(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->kind == K::PlanWrongDevice);
  CHECK(found[0]->detail.find("reaches su2-rail0 port 12 instead of su1-rail0 port 1") != std::string::npos);
  CHECK(found[0]->detail.ends_with("move its end from su2-rail0 port 12 to su1-rail0 port 1"));
}

TEST_CASE("plan: a removed cable is missing with the state of both ports, and a host with none left is a missing device") {
  SUBCASE("one of the host's two cables") {
    const Cluster c = checked(fabric({.remove_cables = {{"su1-rail0", "dgx001"}}}), plan_of(fabric()));
    const auto found = plan_findings(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->kind == K::PlanMissingCable);
    CHECK(found[0]->subject == "su1-rail0[1] - dgx001 mlx5_0");
    CHECK(found[0]->detail.find("su1-rail0 port 1 has no cable, dgx001 mlx5_0 has no cable") != std::string::npos);
  }
  SUBCASE("both: the host is gone from the fabric, one finding for it") {
    const Cluster c =
        checked(fabric({.remove_cables = {{"su1-rail0", "dgx001"}, {"su1-rail1", "dgx001"}}}), plan_of(fabric()));
    const auto found = plan_findings(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->kind == K::PlanMissingDevice);
    CHECK(found[0]->subject == "dgx001");
    CHECK(found[0]->detail.starts_with("in the plan with 2 cables (mlx5_0 to su1-rail0[1], mlx5_1 to su1-rail1[1])"));
  }
}

TEST_CASE("plan: a cable below the plan's rate is slow, and a cable or a device the plan lacks is extra or unknown") {
  SUBCASE("slow") {
    const Cluster c = checked(fabric({.degrade_cables = {{"su1-rail0", "dgx001"}}}), plan_of(fabric()));
    const auto found = plan_findings(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->kind == K::PlanSlowCable);
    CHECK(found[0]->detail.starts_with("runs at 1xNDR, the plan says 4xNDR"));
  }
  SUBCASE("the plan was made without a cable that is there") {
    const Cluster c = checked(fabric(), plan_of(fabric({.remove_cables = {{"su1-rail0", "dgx001"}}})));
    const auto found = plan_findings(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->kind == K::PlanExtraCable);
    CHECK(found[0]->subject == "su1-rail0[1] - dgx001 mlx5_0");
  }
  SUBCASE("the plan was made without a host that is there") {
    const Cluster c =
        checked(fabric(), plan_of(fabric({.remove_cables = {{"su1-rail0", "dgx001"}, {"su1-rail1", "dgx001"}}})));
    const auto found = plan_findings(c);
    REQUIRE(found.size() == 1);
    CHECK(found[0]->kind == K::PlanUnknownDevice);
    CHECK(found[0]->subject == "dgx001");
  }
}

TEST_CASE("plan: a port the plan uses twice is an error naming both lines") {
  CablePlan plan;
  plan.source = "cables.csv";
  plan.cables = {{{"leaf01", "1", true}, {"dgx001", "mlx5_0", false}, 0, LinkSpeed::Unknown, 2},
                 {{"leaf01", "1", true}, {"dgx002", "mlx5_0", false}, 0, LinkSpeed::Unknown, 5}};
  ClusterOptions options;
  options.plans = {plan};
  try {
    build_cluster({fabric()}, options);
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == "cables.csv");
    CHECK(e.line() == 5);
    CHECK(std::string(e.what()).ends_with("expected each port once in the plan, but leaf01[1] is also on line 2"));
  }
}

TEST_CASE("plan: a host's two cables crossed between rails are one swap at the host, said once with crossed-rails") {
  const Fabric crossed = fabric({.cross_rails = {{"dgx001", 0, 1}}});
  // Without a plan the symmetry check sees it; with one, the plan says it, naming the ports.
  const Cluster alone = build_cluster({crossed}, ClusterOptions{});
  int symmetry = 0;
  for (const auto& a : alone.anomalies) symmetry += a.kind == K::CrossedRails && a.subject == "dgx001";
  REQUIRE(symmetry == 1);
  const Cluster c = checked(crossed, plan_of(fabric()));
  const auto found = plan_findings(c);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->kind == K::PlanSwappedCables);
  CHECK(found[0]->subject == "dgx001 mlx5_0 and mlx5_1");
  CHECK(found[0]->detail.starts_with("dgx001 mlx5_1 is cabled to su1-rail0 port 1 and dgx001 mlx5_0 cabled to "
                                     "su1-rail1 port 1, the plan has them the other way"));
  CHECK(found[0]->detail.ends_with("swap the cables in dgx001 mlx5_0 and mlx5_1"));
  for (const auto& a : c.anomalies) CHECK(a.kind != K::CrossedRails);
  CHECK(c.plan_checks[0].merged == 1);
  CHECK(c.plan_checks[0].findings == 1);
}

TEST_CASE("plan: a host cable on another unit's leaf is one wrong-device finding, not also miscabled-rail") {
  // Units of 8 hosts on 4 rails, so that the unit's other hosts outvote the one miscabled HCA.
  auto four_rails = [](const Faults& faults) {
    RailOptimizedSpec spec;
    spec.scalable_units = 2;
    spec.hosts_per_su = 8;
    spec.rails = 4;
    Fabric f = generate_rail_optimized(spec);
    apply_faults(f, faults);
    return f;
  };
  const Fabric moved = four_rails({.move_cables = {{port("su1-rail1", 2), port("su2-rail1", 40)}}});
  const Cluster alone = build_cluster({moved}, ClusterOptions{});
  int symmetry = 0;
  for (const auto& a : alone.anomalies) symmetry += a.kind == K::MiscabledRail && a.subject == "dgx002";
  REQUIRE(symmetry == 1);
  const Cluster c = checked(moved, plan_of(four_rails({})));
  for (const auto& a : c.anomalies) CHECK(a.kind != K::MiscabledRail);
  CHECK(plan_findings(c).size() == 1);
  CHECK(c.plan_checks[0].merged == 1);
}

TEST_CASE("plan: each switch's planned cables, those as planned and the findings at its ports") {
  const Cluster c = checked(fabric({.swap_cables = {{port("su1-rail0", 1), port("su1-rail0", 2)}}}), plan_of(fabric()));
  REQUIRE(c.plan_checks.size() == 1);
  const PlanSummary& s = c.plan_checks[0];
  const PlanSwitchTally* leaf = nullptr;
  const PlanSwitchTally* other = nullptr;
  for (const auto& t : s.switches) {
    if (t.name == "su1-rail0") leaf = &t;
    if (t.name == "su2-rail0") other = &t;
  }
  REQUIRE(leaf);
  REQUIRE(other);
  CHECK(leaf->planned == other->planned);
  CHECK(leaf->present == leaf->planned - 2);
  CHECK(leaf->findings == 1);
  CHECK(other->present == other->planned);
  CHECK(other->findings == 0);
  // Every switch of the fabric, each once, by name.
  CHECK(s.switches.size() == c.switches.size());
}

TEST_CASE("plan: a host's one HCA named by no name of its own in the plan (an ibdm P1) is the fabric's one HCA") {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  spec.rails = 1;
  spec.radix = 8;
  const Fabric f = generate_rail_optimized(spec);
  CablePlan plan = plan_of(f);
  for (auto& cable : plan.cables)
    for (PlanEnd* e : {&cable.a, &cable.b})
      if (!e->switch_end) e->port = "port 1";
  const Cluster c = checked(f, plan);
  CHECK(plan_findings(c).empty());
  CHECK(c.plan_checks[0].present == c.plan_checks[0].planned);
  SUBCASE("two named HCAs are two HCAs: a plan's mlx5_1 is not the fabric's mlx5_0") {
    CablePlan named_otherwise = plan_of(f);
    for (auto& cable : named_otherwise.cables)
      for (PlanEnd* e : {&cable.a, &cable.b})
        if (!e->switch_end && e->device == "dgx001") e->port = "mlx5_1";
    const Cluster d = checked(f, named_otherwise);
    CHECK(plan_findings(d).size() == 1);
  }
}

TEST_CASE("plan: a unit cabled one port off on every leaf, which its hosts' symmetry cannot show, is named cable by cable") {
  const Fabric off = fabric({.offset_units = {"su1"}});
  // The unit's hosts all agree with each other: no symmetry finding.
  const Cluster alone = build_cluster({off}, ClusterOptions{});
  for (const auto& a : alone.anomalies) {
    CAPTURE(a.detail);
    CHECK(a.kind != K::MiscabledRail);
    CHECK(a.kind != K::CrossedRails);
    CHECK(a.kind != K::MissingRail);
  }
  const Cluster c = checked(off, plan_of(fabric()));
  const auto found = plan_findings(c);
  // 4 hosts on each of su1's 2 leaves, each one port on: 8 cables to move, each named.
  REQUIRE(found.size() == 8);
  for (const Anomaly* a : found) CHECK(a->kind == K::PlanWrongPort);
  bool first = false;
  for (const Anomaly* a : found)
    first = first || a->detail.ends_with("move the cable in su1-rail0 port 2 to port 1");
  CHECK(first);
  int su2 = 0;
  for (const auto& t : c.plan_checks[0].switches)
    if (t.name.starts_with("su2-")) su2 += t.findings;
  CHECK(su2 == 0);
}

TEST_CASE("plan: a replaced switch's new SHARP aggregation node is still the planned one, named by its switch") {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  spec.rails = 2;
  spec.radix = 16;
  spec.sharp = true;
  const Fabric planned = generate_rail_optimized(spec);
  const CablePlan plan = plan_of(planned);
  bool named_by_switch = false;
  for (const auto& cable : plan.cables)
    named_by_switch = named_by_switch || cable.b.device == "su1-rail0 aggregation node" || cable.a.device == "su1-rail0 aggregation node";
  CHECK(named_by_switch);
  // The switch and its aggregation node replaced: new GUIDs, same names and cables.
  Fabric today = planned;
  std::map<uint64_t, uint64_t> renamed;
  for (auto& n : today.nodes)
    if (n.kind == NodeKind::Ca && n.description.find("Aggregation Node") != std::string::npos && renamed.empty()) {
      renamed[n.guid] = n.guid + 0x1000000;
      n.guid = n.sysimgguid = n.guid + 0x1000000;
    }
  REQUIRE(renamed.size() == 1);
  for (auto& l : today.links)
    for (LinkEnd* e : {&l.a, &l.b})
      if (renamed.count(e->guid)) e->guid = renamed[e->guid];
  normalize(today);
  const Cluster c = checked(today, plan);
  CHECK(plan_findings(c).empty());
  CHECK(c.plan_checks[0].present == c.plan_checks[0].planned);
}
