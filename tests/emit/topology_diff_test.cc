#include "emit/topology_diff.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("topology diff: moves, additions and drops in an admin's terms") {
  ParsedTopology old_file = parse_topology_conf(
      "SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=s Switches=l[1-2]\n", "old");
  ParsedTopology new_file = parse_topology_conf(
      "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-7,9]\nSwitchName=s Switches=l[1-2]\n", "new");
  TopologyDiff d = diff_topology(old_file, new_file);
  CHECK(d.lines == std::vector<std::string>{"~ n[3-4]: l1 -> l2", "+ nodes n9", "- nodes n8"});
  CHECK(d.old_nodes == 8);
  CHECK(d.dropped.size() == 1);
}

TEST_CASE("topology diff: switches added, removed and re-parented") {
  ParsedTopology a = parse_topology_conf("SwitchName=l1 Nodes=n1\nSwitchName=s Switches=l1\n", "a");
  ParsedTopology b = parse_topology_conf("SwitchName=l1 Nodes=n1\nSwitchName=l2 Nodes=n2\nSwitchName=s Switches=l[1-2]\n", "b");
  TopologyDiff d = diff_topology(a, b);
  CHECK(d.lines == std::vector<std::string>{"+ switch l2 (1 nodes)", "~ switch s children: l1 -> l[1-2]", "+ nodes n2"});
  CHECK(diff_topology(a, a).empty());
}

TEST_CASE("topology diff: a node listed under two leaves counts once, at its first leaf") {
  ParsedTopology old_file = parse_topology_conf("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[2-3]\n", "old");
  ParsedTopology new_file = parse_topology_conf("SwitchName=l1 Nodes=n1\nSwitchName=l3 Nodes=n[2-3]\n", "new");
  TopologyDiff d = diff_topology(old_file, new_file);
  CHECK(d.lines == std::vector<std::string>{"+ switch l3 (2 nodes)", "- switch l2", "~ n2: l1 -> l3", "~ n3: l2 -> l3"});
  CHECK(d.old_nodes == 3);
  CHECK(d.dropped.empty());
}
