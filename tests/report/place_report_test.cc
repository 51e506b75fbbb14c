#include "report/place_report.h"

#include <doctest/doctest.h>

#include "slurm/hostlist.h"
#include "slurm/topology_conf.h"

using namespace slurmtopo;

namespace {

// Leaves of 4 under two pods under one root: topology.conf levels 1, 2 and 3.
const char* kTwoPods =
    "SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=l3 Nodes=n[9-12]\n"
    "SwitchName=l4 Nodes=n[13-16]\nSwitchName=a1 Switches=l[1-2]\nSwitchName=a2 Switches=l[3-4]\n"
    "SwitchName=root Switches=a[1-2]\n";

SelectResult place(int count, const std::string& busy) {
  SelectSetup s;
  for (const auto& n : expand_hostlist("n[1-16]")) s.nodes.push_back({n, 1, 2});
  s.tree = parse_topology_conf(kTwoPods, "topology.conf");
  SelectJob job;
  job.nodes = count;
  job.exclusive = true;
  return SlurmSelect(std::move(s)).place(job, expand_hostlist(busy));
}

}  // namespace

TEST_CASE("place report: the hostlist alone, or with --explain the top switch, the leaf order and the outcome") {
  const SelectResult r = place(6, "n[5-7]");
  CHECK(place_report(r, false) == "n[9-14]\n");
  const std::string text = place_report(r, true);
  CHECK(text.rfind("n[9-14]\n", 0) == 0);
  // The root is level 3 as topology.conf counts levels (leaves = 1), not slurmctld's 2.
  CHECK(text.find("top: root (level 3)") != std::string::npos);
  CHECK(text.find("l3  distance 0") != std::string::npos);
  CHECK(text.find("l4  distance 2") != std::string::npos);
  CHECK(text.find("allocated: n[9-14] (6 nodes)") != std::string::npos);
}

TEST_CASE("place report: a job that cannot start prints no hostlist, and says why when asked") {
  const SelectResult r = place(16, "n1");
  CHECK_FALSE(r.started);
  CHECK(place_report(r, false).empty());
  CHECK(place_report(r, true).find("cannot start: ") != std::string::npos);
}
