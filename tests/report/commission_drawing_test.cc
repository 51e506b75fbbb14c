#include <doctest/doctest.h>

#include "commission_fixture.h"
#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "graph/slurm_tree.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report drawing: the SuperPOD's four units as leaf boxes, every finding on a box, the degraded cable's edge flagged") {
  const Drawing& d = superpod_report().drawing;
  REQUIRE(d.levels.size() == 2);
  REQUIRE(d.levels[0].size() == 4);
  CHECK(d.levels[0][0].label == "su1");
  CHECK(d.levels[0][0].hosts == 16);
  CHECK(d.unplaced.empty());
  // su4-rail5's missing uplink is on su4; dgx040's unnamed HCA hangs off su3-rail6.
  auto on = [&](int box, const std::string& kind) {
    for (int i : d.levels[0][box].findings)
      if (superpod_report().findings[i].kind == kind) return true;
    return false;
  };
  CHECK(on(3, "missing-uplinks"));
  CHECK(on(2, "unresolved-hca"));
  CHECK_FALSE(on(0, "missing-uplinks"));
  int flagged = 0;
  for (const auto& e : d.edges) flagged += e.flagged;
  CHECK(flagged == 1);  // su2-rail6[24] - rail6-spine01
}

TEST_CASE("report drawing: a fabric of 1,024 leaves folds into at most kDrawingBoxes boxes per level") {
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 64;
  spec.hosts = 16384;
  Cluster c = build_cluster({generate_fattree(spec)}, ClusterOptions{});
  const SlurmTree tree = build_slurm_tree(c);
  const Drawing d = plan_drawing(c, tree, {make_finding("fabric", finding_kind(Anomaly::Kind::MissingUplinks), c.switches.back().name, "x")});
  int hosts = 0;
  for (const auto& level : d.levels) CHECK(level.size() <= static_cast<size_t>(kDrawingBoxes));
  for (const auto& b : d.levels[0]) hosts += b.hosts;
  CHECK(hosts == 16384);
  CHECK(d.levels[0].front().label.find(" … ") != std::string::npos);
  int placed = 0;
  for (const auto& level : d.levels)
    for (const auto& b : level) placed += static_cast<int>(b.findings.size());
  CHECK(placed == 1);
}
