#include <doctest/doctest.h>

#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report nodes: the class's GPU-NIC matrix as nvidia-smi topo -m prints it, X on the diagonal") {
  REQUIRE(superpod_report().classes.size() == 1);
  const ClassNodes& c = superpod_report().classes[0];
  CHECK(c.hostlist == "dgx[001-064]");
  REQUIRE(c.gpus.size() == 8);
  const size_t n = c.gpus.size() + c.nics.size();
  REQUIRE(c.matrix.size() == n);
  for (size_t i = 0; i < n; ++i) {
    REQUIRE(c.matrix[i].size() == n);
    CHECK(c.matrix[i][i] == "X");
    for (size_t j = 0; j < n; ++j) CHECK(c.matrix[i][j] == c.matrix[j][i]);  // symmetric
  }
  // samples/make-nodes.sh: GPU g shares a PCIe switch with mlx5_g.
  CHECK(c.matrix[0][8] == "PIX");
  // 8 H100 on NVSwitch, 18 links each: every GPU pair is NV18, not the PCIe class between them.
  for (size_t i = 0; i < 8; ++i)
    for (size_t j = 0; j < 8; ++j)
      if (i != j) CHECK(c.matrix[i][j] == "NV18");
}

TEST_CASE("report nodes: each GPU's nearest NIC, its InfiniBand rail and leaf, cores, and NCCL_IB_HCA in GPU order") {
  const ClassNodes& c = superpod_report().classes[0];
  REQUIRE(c.per_gpu.size() == 8);
  for (const auto& g : c.per_gpu) {
    CHECK(g.nic == "mlx5_" + std::to_string(g.index));
    CHECK(g.link_layer == "InfiniBand");
    CHECK(g.leaves == "su1-rail" + std::to_string(g.index));
    CHECK(g.cores == 56);
  }
  CHECK(c.nccl_ib_hca == "=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7");
  CHECK(c.node_line.rfind("NodeName=dgx[001-064] ", 0) == 0);
}
