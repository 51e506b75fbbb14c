#include <doctest/doctest.h>

#include <sstream>

#include "commission_fixture.h"
#include "report/commission_parts.h"

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
