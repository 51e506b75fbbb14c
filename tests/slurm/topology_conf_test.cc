#include "slurm/topology_conf.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("topology.conf parse: keys are case-insensitive, comments and blank lines skipped") {
  ParsedTopology p = parse_topology_conf(
      "# header\n\nswitchname=s0 nodes=gpu[001-003] # trailing\nSwitchName=top Switches=s0 LinkSpeed=100\n", "t.conf");
  CHECK(p.errors.empty());
  REQUIRE(p.switches.size() == 2);
  CHECK(p.switches[0].line == 3);
  CHECK(p.switches[0].nodes == std::vector<std::string>{"gpu001", "gpu002", "gpu003"});
  CHECK(p.switches[1].switches == std::vector<std::string>{"s0"});
}

TEST_CASE("topology.conf parse: what slurmctld cannot parse is an error with its line") {
  ParsedTopology p = parse_topology_conf("SwitchName=a Nodes=n[1-\nSwitchName=b Colour=red\nNodes=x\n", "t.conf");
  REQUIRE(p.errors.size() == 3);
  CHECK(p.errors[0].line == 1);
  CHECK(p.errors[0].message.find("hostlist") != std::string::npos);
  CHECK(p.errors[1].line == 2);
  CHECK(p.errors[1].message.find("Colour") != std::string::npos);
  CHECK(p.errors[2].line == 3);
}

TEST_CASE("topology.conf parse: RingName= (topology/ring, 26.05) is named as such") {
  ParsedTopology p = parse_topology_conf("RingName=r1 Nodes=n[1-4]\n", "t.conf");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].line == 1);
  CHECK(p.errors[0].message.find("topology/ring (Slurm 26.05)") != std::string::npos);
}

TEST_CASE("topology.conf: a continued line is one switch, reported at its first line") {
  const ParsedTopology t = parse_topology_conf("# header\nSwitchName=leaf1 \\\n  Nodes=n[1-4]\nSwitchName=top Switches=leaf1\n", "t.conf");
  REQUIRE(t.errors.empty());
  REQUIRE(t.switches.size() == 2);
  CHECK(t.switches[0].line == 2);
  CHECK(t.switches[0].nodes.size() == 4);
  CHECK(t.switches[1].line == 4);
}

TEST_CASE("topology.conf: nodes_below gives every node under each switch, as scontrol lists them") {
  const ParsedTopology p = parse_topology_conf(
      "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\nSwitchName=top Switches=l[1-2],gone\n"
      "SwitchName=a Switches=b\nSwitchName=b Switches=a Nodes=n9\n",
      "t.conf");
  const auto below = nodes_below(p);
  REQUIRE(below.size() == 5);
  CHECK(below[0] == std::set<std::string>{"n1", "n2"});
  CHECK(below[2] == std::set<std::string>{"n1", "n2", "n3", "n4"});  // the unknown child adds nothing
  CHECK(below[3] == std::set<std::string>{"n9"});                    // a cycle stops, once round
  CHECK(below[4] == std::set<std::string>{"n9"});
}
