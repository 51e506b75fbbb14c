#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "graph/node_join.h"
#include "report/commission_parts.h"
#include "slurm/hostlist.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report HTML nodes: the topo -m matrix, each GPU's NIC, NCCL_IB_HCA, the hosts that differ") {
  std::ostringstream out;
  html_nodes(superpod_report(), out);
  const std::string s = out.str();
  CHECK(s.find("<table class=\"matrix\">") != std::string::npos);
  CHECK(s.find("<th scope=\"row\">GPU0</th><td class=\"X\">X</td>") != std::string::npos);
  CHECK(s.find("<td>GPU3</td><td>mlx5_3</td><td>PIX</td><td>InfiniBand</td>") != std::string::npos);
  CHECK(s.find("=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7") != std::string::npos);
  CHECK(s.find("<td>rail-leaf</td><td>dgx010</td>") != std::string::npos);
  std::ostringstream none;
  html_nodes(fattree_report(), none);
  CHECK(none.str().empty());
}

TEST_CASE("report HTML nodes: node-probe findings stand under their host's class, the others below") {
  CommissionReport r = superpod_report();
  REQUIRE(!r.classes.empty());
  const std::string first = expand_hostlist(r.classes.front().hostlist).front();
  r.findings.push_back(make_finding("nodes", finding_kind(NodeAnomaly::Kind::PcieDowntrained), first,
                                    "GPU 3 (0000:61:00.0) at x8 Gen5, capable of x16 Gen5: half its PCIe bandwidth"));
  std::ostringstream out;
  html_nodes(r, out);
  const std::string s = out.str();
  const size_t health = s.find("<caption>Node health (node probes): what a job on these hosts will suffer</caption>");
  const size_t others = s.find("<caption>Hosts that differ from their class");
  REQUIRE(health != std::string::npos);
  REQUIRE(others != std::string::npos);
  CHECK(health < others);
  const size_t row = s.find("<tr class=\"fail\"><td>#" + std::to_string(r.findings.size() - 1) +
                            "</td><td>pcie-downtrained</td><td>" + first + "</td>");
  CHECK(row > health);
  CHECK(row < others);
  CHECK(s.find("pcie-downtrained", others) == std::string::npos);  // not listed twice
}
