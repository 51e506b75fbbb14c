#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML Slurm: each generated file with its validation, and the diff when there is one") {
  std::ostringstream out;
  html_slurm(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<h3>topology.conf</h3>") != std::string::npos);
  CHECK(s.find("<h3>gres.conf</h3>") != std::string::npos);
  CHECK(s.find("passes every check") != std::string::npos);
  CHECK(s.find("topology-diff") == std::string::npos);  // no --topology
  CommissionReport r = fattree_report();
  r.topology_in_service = "/etc/slurm/topology.conf";
  r.topology_diff = {"cn001 moves from leaf1 to leaf2"};
  r.slurm[0].errors = {"line 3: switch s1 listed twice"};
  std::ostringstream diff;
  html_slurm(r, diff);
  CHECK(diff.str().find("<pre id=\"topology-diff\">cn001 moves from leaf1 to leaf2") != std::string::npos);
  CHECK(diff.str().find("<tr class=\"fail\"><td>error</td><td>line 3: switch s1 listed twice</td>") != std::string::npos);
}
