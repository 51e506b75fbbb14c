#include "emit/topology_check.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {
TopologyCheck check(const char* text, TopologyCheckOptions o = {}) {
  return check_topology(parse_topology_conf(text, "t.conf"), o);
}
bool mentions(const std::vector<TopologyIssue>& issues, const std::string& what) {
  for (const auto& i : issues)
    if (i.message.find(what) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("topology check: a proper tree passes without warnings") {
  TopologyCheck c = check("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\nSwitchName=s Switches=l[1-2]\n");
  CHECK(c.ok());
  CHECK(c.warnings.empty());
}

TEST_CASE("topology check: slurmctld's fatal conditions are errors") {
  CHECK(mentions(check("SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n").errors, "already been defined"));
  CHECK(mentions(check("SwitchName=a Nodes=n1\nSwitchName=b Switches=zz\n").errors, "invalid child (zz)"));
  CHECK(mentions(check("SwitchName=a Switches=a\n").errors, "invalid child (a)"));
  CHECK(mentions(check("SwitchName=a\n").errors, "neither child switches nor nodes"));
  CHECK(mentions(check("SwitchName=a Nodes=n1 Switches=b\nSwitchName=b Nodes=n2\n").errors, "both Nodes= and Switches="));
  CHECK(mentions(check("SwitchName=l Nodes=n1\nSwitchName=a Switches=b,l\nSwitchName=b Switches=a\n").errors, "not a tree"));
  CHECK(mentions(check("# nothing\n").errors, "no switches"));
  std::string longname = "SwitchName=" + std::string(65, 'x') + " Nodes=n1\n";
  CHECK(mentions(check(longname.c_str()).errors, "longer than 64"));
  CHECK(mentions(check("SwitchName=s12345678901234567890 Nodes=n1\n").errors, "19 digits"));
}

TEST_CASE("topology check: slurmctld's warnings are warnings") {
  TopologyCheckOptions o;
  o.slurm_nodes = std::vector<std::string>{"n1", "n2", "n9"};
  TopologyCheck c = check("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[2-3]\n", o);
  CHECK(c.ok());
  CHECK(mentions(c.warnings, "Multiple leaf switches contain nodes: n2"));
  CHECK(mentions(c.warnings, "not in slurm.conf): n3"));
  CHECK(mentions(c.warnings, "lack access to 1 nodes"));
  CHECK(mentions(c.warnings, "no switch can reach all nodes"));
  o.expected_roots = 2;  // two separate fabrics: two roots is what we meant
  CHECK_FALSE(mentions(check("SwitchName=a Nodes=n1\nSwitchName=b Nodes=n2\n", o).warnings, "reach all nodes"));
}

TEST_CASE("topology check: a switch under two parents keeps only the last, and we say so") {
  TopologyCheck c = check("SwitchName=l Nodes=n1\nSwitchName=a Switches=l\nSwitchName=b Switches=l\nSwitchName=r Switches=a,b\n");
  CHECK(c.ok());
  CHECK(mentions(c.warnings, "2 parents"));
}
