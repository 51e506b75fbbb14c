// A what-if run as units: how many per mode, and the same records whether the units run
// together or in pieces (what makes shards mergeable).
#include "simulate/whatif/whatif_run.h"

#include <doctest/doctest.h>

#include "simulate/whatif/synthetic_workload.h"
#include "slurm/hostlist.h"
#include "tests/simulate/whatif/whatif_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

std::string dump(const std::vector<nlohmann::ordered_json>& v) {
  std::string s;
  for (const auto& j : v) s += j.dump() + "\n";
  return s;
}

}  // namespace

TEST_CASE("whatif run: units per mode") {
  WhatifRequest r;
  r.sizes = {4, 8, 16};
  CHECK(whatif_mode(r) == WhatifMode::Policies);
  CHECK(whatif_units(r) == 3);
  r.edits.add_spines = 1;
  r.samples = 40;
  CHECK(whatif_mode(r) == WhatifMode::Edits);
  CHECK(whatif_units(r) == 40);
  r.workload = Workload{};
  CHECK(whatif_mode(r) == WhatifMode::Replay);
  CHECK(whatif_units(r) == 3);
  r.edits = {};
  CHECK(whatif_units(r) == 2);
}

TEST_CASE("whatif run: units give the same records together or apart") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase before = make_whatif_case(cluster, partition_of(cluster), {});
  WhatifCaseSpec drained;
  drained.drained = {"gpu001", "gpu002", "gpu003"};
  const WhatifCase after = make_whatif_case(cluster, partition_of(cluster), drained);
  PlacementCosts bc(*before.fabric, one_rail(), 1 << 30), ac(*after.fabric, one_rail(), 1 << 30);
  WhatifRequest r;
  r.sizes = {4, 12};
  r.samples = 6;
  r.edits.drain = drained.drained;
  WhatifInputs in{&before, &after, &bc, &ac, 2};
  const auto all = run_whatif_units(r, in, {0, 1, 2, 3, 4, 5});
  PlacementCosts bc2(*before.fabric, one_rail(), 1 << 30), ac2(*after.fabric, one_rail(), 1 << 30);
  WhatifInputs fresh{&before, &after, &bc2, &ac2, 1};
  auto part = run_whatif_units(r, fresh, {3, 4, 5});
  const auto first = run_whatif_units(r, fresh, {0, 1, 2});
  part.insert(part.begin(), first.begin(), first.end());
  CHECK(dump(all) == dump(part));
  // The drained nodes are never in an "after" placement, and are in some "before" one.
  bool after_clean = true, before_uses = false;
  for (const auto& rec : all)
    for (const auto& j : rec["jobs"]) {
      if (j["after"]["started"].get<bool>())
        for (const auto& n : expand_hostlist(j["after"]["hostlist"].get<std::string>())) after_clean &= n > "gpu003";
      if (j["before"]["started"].get<bool>())
        for (const auto& n : expand_hostlist(j["before"]["hostlist"].get<std::string>())) before_uses |= n <= "gpu003";
    }
  CHECK(after_clean);
  CHECK(before_uses);
}

TEST_CASE("whatif run: the header names what identifies the run") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase before = make_whatif_case(cluster, partition_of(cluster), {});
  PlacementCosts bc(*before.fabric, one_rail(), 1 << 30);
  WhatifRequest r;
  r.sizes = {4};
  r.seed = 9;
  const auto h = whatif_run_header(r, {&before, nullptr, &bc, nullptr, 2}, {"f.topo"});
  CHECK(h["mode"] == "policies");
  CHECK(h["seed"] == 9);
  CHECK(h["size"] == "1 GiB");
  CHECK(h["units"] == 1);
  r.seed = 10;
  CHECK(whatif_run_header(r, {&before, nullptr, &bc, nullptr, 2}, {"f.topo"}) != h);
}

TEST_CASE("whatif run: --busy nodes are busy in every sample of an edit") {
  const Cluster cluster = oversubscribed_tree();
  const WhatifCase before = make_whatif_case(cluster, partition_of(cluster), {});
  WhatifCaseSpec drained;
  drained.drained = {"gpu032"};
  const WhatifCase after = make_whatif_case(cluster, partition_of(cluster), drained);
  WhatifRequest r;
  r.sizes = {8};
  r.samples = 10;
  r.edits.drain = drained.drained;
  r.busy = {"gpu001", "gpu002", "gpu003", "gpu004", "gpu005", "gpu006", "gpu007", "gpu008"};
  const auto records = run_whatif_units(r, {&before, &after, nullptr, nullptr, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  bool clear = true;
  for (const auto& rec : records) {
    CHECK(rec["busy_nodes"].get<int>() >= 8);
    for (const char* side : {"before", "after"})
      if (rec["jobs"][0][side]["started"].get<bool>())
        for (const auto& n : expand_hostlist(rec["jobs"][0][side]["hostlist"].get<std::string>()))
          clear &= n > "gpu008";
  }
  CHECK(clear);
}
