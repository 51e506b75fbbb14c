// Fabric edits for what-if: each checked on the cluster rebuilt from the edited fabric, as the
// what-if uses it.
#include "simulate/whatif/whatif_edits.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

const SwitchInfo& named(const Cluster& c, const std::string& name) {
  for (const SwitchInfo& s : c.switches)
    if (s.name == name) return s;
  FAIL("no switch " << name);
  return c.switches.front();
}

Cluster rebuilt(const EditedFabrics& e) { return build_cluster(e.fabrics, ClusterOptions{}); }

std::string error_of(const Cluster& c, const WhatifEdits& e) {
  try {
    edit_fabrics(c, e);
  } catch (const InputError& err) {
    return err.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("whatif edits: cable references") {
  const CableRef port = parse_cable_ref("leaf001/9");
  CHECK(port.a == "leaf001");
  CHECK(port.port == 9);
  const CableRef pair = parse_cable_ref("leaf001,spine02");
  CHECK(pair.a == "leaf001");
  CHECK(pair.b == "spine02");
  CHECK(pair.port == 0);
  for (const char* bad : {"leaf001", "leaf001/", "leaf001/x", "/3", "leaf001/0", ",spine01", "leaf001,"})
    CHECK_THROWS_WITH_AS(parse_cable_ref(bad), doctest::Contains("--remove-cable"), InputError);
}

TEST_CASE("whatif edits: removing an uplink leaves the leaf one fewer") {
  const Cluster c = oversubscribed_tree();
  const int uplinks = named(c, "leaf001").uplinks;
  REQUIRE(uplinks == 4);
  WhatifEdits by_pair;
  by_pair.remove_cables = {parse_cable_ref("leaf001,spine02")};
  const EditedFabrics a = edit_fabrics(c, by_pair);
  CHECK(a.fabrics[0].links.size() == c.fabrics[0].links.size() - 1);
  CHECK(named(rebuilt(a), "leaf001").uplinks == 3);
  CHECK(a.hosts_cut.empty());
  WhatifEdits by_port;
  by_port.remove_cables = {parse_cable_ref("leaf001/9")};  // 8 host ports, uplinks from 9
  CHECK(named(rebuilt(edit_fabrics(c, by_port)), "leaf001").uplinks == 3);
}

TEST_CASE("whatif edits: a host cable cut takes the host off the fabric") {
  const Cluster c = oversubscribed_tree();
  WhatifEdits e;
  e.remove_cables = {parse_cable_ref("leaf001/1")};
  const EditedFabrics out = edit_fabrics(c, e);
  CHECK(out.hosts_cut == std::vector<std::string>{"gpu001"});
  const Cluster after = rebuilt(out);
  CHECK(after.host_index("gpu001") < 0);
  CHECK(after.hosts.size() == 31);
}

TEST_CASE("whatif edits: a switch out of service loses every cable") {
  const Cluster c = oversubscribed_tree();
  WhatifEdits e;
  e.drain_switches = {"leaf002"};
  const EditedFabrics out = edit_fabrics(c, e);
  CHECK(out.hosts_cut.size() == 8);
  CHECK(out.hosts_cut.front() == "gpu009");
  CHECK(rebuilt(out).hosts.size() == 24);
  WhatifEdits spine;
  spine.drain_switches = {"spine01"};
  const Cluster after = rebuilt(edit_fabrics(c, spine));
  CHECK(after.hosts.size() == 32);
  CHECK(named(after, "leaf003").uplinks == 3);
}

TEST_CASE("whatif edits: added spines reach every leaf") {
  const Cluster c = oversubscribed_tree();
  WhatifEdits e;
  e.add_spines = 2;
  const EditedFabrics out = edit_fabrics(c, e);
  CHECK(out.notes.empty());  // the HDR switches have free ports
  CHECK(out.fabrics[0].links.size() == c.fabrics[0].links.size() + 2 * 4);
  const Cluster after = rebuilt(out);
  for (const char* leaf : {"leaf001", "leaf002", "leaf003", "leaf004"}) CHECK(named(after, leaf).uplinks == 6);
  int spines = 0;
  for (const SwitchInfo& s : after.switches) spines += s.role == SwitchRole::Upper;
  CHECK(spines == 6);
}

TEST_CASE("whatif edits: unknown switches and cables name the option") {
  const Cluster c = oversubscribed_tree();
  WhatifEdits a;
  a.drain_switches = {"leaf999"};
  CHECK(error_of(c, a).find("--drain-switch: no switch named 'leaf999'") == 0);
  WhatifEdits b;
  b.remove_cables = {parse_cable_ref("leaf001,leaf002")};
  CHECK(error_of(c, b) == "--remove-cable: no cable between leaf001 and leaf002");
  WhatifEdits d;
  d.remove_cables = {parse_cable_ref("leaf001/40")};
  CHECK(error_of(c, d) == "--remove-cable: no cable on leaf001 port 40");
}

TEST_CASE("whatif edits: described in words") {
  WhatifEdits e;
  e.drain = {"a", "b"};
  e.add_spines = 1;
  e.remove_cables = {parse_cable_ref("x/3")};
  CHECK(describe(e) == std::vector<std::string>{"drain 2 nodes", "remove the cable x port 3", "add 1 spine"});
  CHECK(WhatifEdits{}.empty());
  CHECK_FALSE(e.empty());
}

TEST_CASE("whatif edits: a spine added to a rail-optimized fabric joins its model's rail plane") {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 2;
  spec.radix = 16;
  const Cluster c = build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  WhatifEdits e;
  e.add_spines = 2;  // one like rail0-spine01, one like the next top switch in name order
  const Cluster after = rebuilt(edit_fabrics(c, e));
  for (const char* leaf : {"su1-rail0", "su2-rail0"}) CHECK(named(after, leaf).uplinks == named(c, leaf).uplinks + 1);
  // The second model is the second top switch: rail0's second spine if there is one, else rail1's.
  int added_uplinks = 0;
  for (const char* leaf : {"su1-rail0", "su2-rail0", "su1-rail1", "su2-rail1"})
    added_uplinks += named(after, leaf).uplinks - named(c, leaf).uplinks;
  CHECK(added_uplinks == 4);  // each new spine reached the 2 leaves of one plane
}
