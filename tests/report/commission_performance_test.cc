#include <doctest/doctest.h>

#include <filesystem>

#include <sstream>

#include "commission_fixture.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_names.h"
#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report performance: busbw grows with size and never passes the placement's physical limit") {
  for (const CommissionReport* r : {&superpod_report(), &fattree_report()}) {
    REQUIRE(r->performance);
    REQUIRE(r->performance->curves.size() == 3);  // one node, one group, the whole fabric
    for (const Curve& c : r->performance->curves) {
      REQUIRE(c.bytes.size() == c.busbw_gbs.size());
      CHECK(c.busbw_gbs.back() > c.busbw_gbs.front());
      for (double v : c.busbw_gbs) CHECK(v <= c.limit_gbs);
    }
  }
}

TEST_CASE("report performance: packed against spread is what the what-if policies give, per job size") {
  // The SuperPOD: one group holds 16 hosts, so 16 and 32; the hosts named by a finding are busy.
  const auto& sp = superpod_report().performance->spread_packed;
  REQUIRE(sp);
  CHECK(sp->busy == "dgx[005,010,021,040]");
  CHECK(sp->placed_with == "emitted topology.conf");
  REQUIRE(sp->jobs.size() == 2);
  CHECK(sp->jobs[0].nodes == 16);
  CHECK(sp->jobs[1].nodes == 32);
  const PolicyJob& j = sp->jobs[0];
  REQUIRE(j.policies.size() == 4);
  CHECK(j.policies[0].policy == "slurm");
  CHECK(j.policies[3].policy == "random");
  REQUIRE(j.packed >= 0);
  REQUIRE(j.spread >= 0);
  const PolicyPlacementRow &packed = j.policies[j.packed], &spread = j.policies[j.spread];
  CHECK(packed.policy == "best");
  CHECK(packed.leaves == 1);  // su4 has its 16 hosts free
  CHECK(spread.leaves > 1);
  // Crossing the spines with whole rings shares leaf uplinks: spread loses at 1 GiB (the two
  // hand-built placements the report used before showed 0 %).
  REQUIRE(spread.loss);
  CHECK(*spread.loss > 0.2);
  CHECK(*spread.busbw_gbs < *packed.busbw_gbs);
  CHECK(*packed.loss == 0);
  // Slurm with the emitted topology packs as well as the best placement.
  CHECK(j.policies[0].leaves == packed.leaves);
}

TEST_CASE("report performance: on the 2:1 fat tree a leaf's 8 hosts, then 16") {
  const auto& sp = fattree_report().performance->spread_packed;
  REQUIRE(sp);
  REQUIRE(sp->jobs.size() == 2);
  CHECK(sp->jobs[0].nodes == 8);
  CHECK(sp->jobs[1].nodes == 16);
  for (const PolicyJob& j : sp->jobs)
    for (const auto& row : j.policies)
      if (row.busbw_gbs && j.packed >= 0) CHECK(*row.busbw_gbs <= *j.policies[j.packed].busbw_gbs + 1e-9);
}

TEST_CASE("report performance: the SuperPOD's faulty hosts are left out and the profile follows the nodes") {
  const Performance& p = *superpod_report().performance;
  CHECK(p.profile.find("h100") != std::string::npos);
  bool said = false;
  for (const auto& w : p.warnings) said |= w.find("4 hosts named by a finding left out") != std::string::npos;
  CHECK(said);
  CHECK(p.curves[2].nodes == 60);
}

TEST_CASE("report performance: no profile and no nodes, no section") {
  CommissionRequest req = fattree_request();
  req.profile.clear();
  CHECK_FALSE(plan_commission(req).performance);
}

TEST_CASE("report performance: a profile of 8 NICs on topograph's 4-HCA DGX is named, and the limits use the fabric's 4") {
  const std::string dump = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/topograph/example.out";
  if (!std::filesystem::exists(dump)) return slurmtopo::testing::skip(dump + " is absent");
  CommissionRequest req;
  req.inputs.fabric_files = {dump};
  req.profile = "h100-ndr";
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.performance);
  CHECK(r.performance->fabric_nics == 4);
  REQUIRE(find_check(r, "performance.profile"));
  CHECK(find_check(r, "performance.profile")->verdict == Verdict::Warn);
  CHECK(has_finding(r, "profile-not-this-fabric", "h100-ndr"));
  for (const auto& curve : r.performance->curves) {
    CAPTURE(curve.name);
    if (curve.nodes < 2) continue;
    CHECK(curve.limit_what == "the node's 4 NICs' line rate across " + std::to_string(curve.nodes) + " nodes");
    // 4 × 400 Gb/s, × N/(N−1) × (n−1)/n: every node sends 2(N−1)/N of the data.
    const double n = 8.0 * curve.nodes;
    CHECK(curve.limit_gbs == doctest::Approx(200.0 * curve.nodes / (curve.nodes - 1) * (n - 1) / n));
    for (double b : curve.busbw_gbs) CHECK(b <= curve.limit_gbs);
  }
}

TEST_CASE("report performance: a profile that matches the fabric's HCAs passes performance.profile") {
  const CommissionReport& r = fattree_report();
  REQUIRE(find_check(r, "performance.profile"));
  CHECK(find_check(r, "performance.profile")->verdict == Verdict::Pass);
}

TEST_CASE("report performance: on NVL72 racks with their domains, one domain and two, each under its limit") {
  Scratch s;
  RailOptimizedSpec spec;
  spec.scalable_units = 4;
  spec.hosts_per_su = 18;
  spec.rails = 4;
  const Fabric f = generate_rail_optimized(spec);
  CommissionRequest req;
  std::ostringstream topo;
  write_ibnetdiscover_text(f, topo);
  req.inputs.fabric_files = {s.write("nvl72.topo", topo.str())};
  req.nvlink_domains = s.write("nvl72.domains", synthetic_nvlink_domains(f, 18));
  req.plugin = "block";
  req.release.release = SlurmRelease{25, 5};
  req.profile = "gb200-nvl72";
  const CommissionReport r = plan_commission(req);
  REQUIRE(r.performance);
  CHECK(r.performance->warnings.empty());
  const Curve* one = nullptr;
  const Curve* two = nullptr;
  for (const Curve& c : r.performance->curves) {
    CAPTURE(c.name);
    if (c.name == "one NVLink domain (18 nodes)") one = &c;
    if (c.name == "two NVLink domains (36 nodes)") two = &c;
    for (double v : c.busbw_gbs) CHECK(v <= c.limit_gbs);
  }
  REQUIRE(one);
  REQUIRE(two);
  CHECK(one->limit_what == "NVLink line rate through NVLS");  // inside the rack: NVLink
  CHECK(two->limit_what == "the NVLink domain's 16 NICs' line rate across 2 domains");
  // At 8 GiB the rack's NVLS beats the tree between two racks.
  CHECK(one->busbw_gbs.back() > two->busbw_gbs.back());
  // The one-node curve is a tray alone (4 GPUs); the rack's domain outruns it.
  CHECK(r.performance->curves.front().busbw_gbs.back() < one->busbw_gbs.back());

  // Without the domains each tray is its own node, and its limit is worded so.
  req.nvlink_domains.clear();
  req.plugin = "tree";
  const CommissionReport blind = plan_commission(req);
  REQUIRE(blind.performance);
  for (const Curve& c : blind.performance->curves) {
    CAPTURE(c.name);
    if (c.nodes > 1 && c.limit_what.find("NICs") != std::string::npos)
      CHECK(c.limit_what == "the node's 4 NICs' line rate across " + std::to_string(c.nodes) + " nodes");
  }
}
