#include <doctest/doctest.h>

#include "commission_fixture.h"

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

TEST_CASE("report performance: a job packed on one leaf against the same size spread one node per leaf") {
  const auto& sp = fattree_report().performance->spread_packed;
  REQUIRE(sp);
  CHECK(sp->nodes == 8);  // a leaf's 8 hosts; 8 leaves
  CHECK(sp->packed == "cn[001-008]");
  CHECK(sp->spread == "cn[001,009,017,025,033,041,049,057]");
  // One host per leaf leaves the 2:1 uplinks idle enough: a ring loses nothing at 1 GiB, and
  // spreading never gains.
  CHECK(sp->spread_busbw <= sp->packed_busbw);
  CHECK(sp->packed_busbw > 0);
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
