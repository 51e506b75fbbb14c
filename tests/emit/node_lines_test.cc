// slurm.conf NodeName lines per class: counts as slurmd -C reports them, RealMemory with a
// margin below the smallest host, Gres= per type, and the class's NCCL_IB_HCA in GPU order.
#include "emit/node_lines.h"

#include <doctest/doctest.h>

#include "tests/graph/node_fixtures.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("RealMemory: 1 % below, at least 1 GiB, down to a whole GiB") {
  CHECK(real_memory_mib(0) == 0);
  CHECK(real_memory_mib(2063937) == 2042880);  // 2063937 - 20639 = 2043298 → 1995 GiB
  CHECK(real_memory_mib(65536) == 64512);      // 1 % < 1 GiB: 1 GiB off
  CHECK(real_memory_mib(16000) == 14336);      // 14976 down to 14 GiB
  CHECK(real_memory_mib(512) == 512);          // too small for a margin
  CHECK(real_memory_mib(4127775) % 1024 == 0);
  CHECK(real_memory_mib(4127775) <= 4127775 - 41277);
}

TEST_CASE("node line: the class's smallest host sets RealMemory") {
  NodeInventory a = dgx_like("dgx001", 0), b = dgx_like("dgx002", 1);
  b.memory_mib -= 300;  // same GiB, same class; slurmd -C would report less on it
  NodeLine l = node_line_for_class({&a, &b}, "dgx[001-002]");
  CHECK(l.cpus == 224);
  CHECK(l.sockets == 2);
  CHECK(l.cores_per_socket == 56);
  CHECK(l.threads_per_core == 2);
  CHECK(l.memory_mib == b.memory_mib);
  CHECK(l.real_memory == real_memory_mib(b.memory_mib));
  CHECK(gres_spec(l) == "gpu:h100:8");
}

TEST_CASE("node line: NCCL_IB_HCA is the NIC nearest each GPU, in GPU order, once each") {
  NodeInventory n = dgx_like("dgx001", 0);
  std::swap(n.nics[2].name, n.nics[3].name);  // mlx5_3 on GPU 2's switch
  NodeLine l = node_line_for_class({&n}, "dgx001");
  CHECK(l.nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_3", "mlx5_2", "mlx5_4", "mlx5_5",
                                                 "mlx5_6", "mlx5_7"});
  NodeInventory x = xe8640_like("gpu001");
  CHECK(node_line_for_class({&x}, "gpu001").nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_2", "mlx5_3"});
}

TEST_CASE("node line: EFA and Slingshot NICs are not for NCCL_IB_HCA") {
  NodeInventory n = dgx_like("n1", 0, 2);
  n.nics[1].link_layer = "EFA";
  CHECK(node_line_for_class({&n}, "n1").nccl_hcas == std::vector<std::string>{"mlx5_0"});
}

TEST_CASE("node line: mixed GPU types, and untyped GPUs") {
  NodeInventory n = dgx_like("n1", 0, 3);
  n.gpus[2].slurm_type = "t4";
  CHECK(gres_spec(node_line_for_class({&n}, "n1")) == "gpu:h100:2,gpu:t4:1");
  for (auto& g : n.gpus) g.slurm_type.clear();
  CHECK(gres_spec(node_line_for_class({&n}, "n1")) == "gpu:3");
  n.gpus.clear();
  CHECK(gres_spec(node_line_for_class({&n}, "n1")) == "");
}

TEST_CASE("NCCL_IB_HCA: exact names, or mlx5_1 would also pick mlx5_10") {
  CHECK(nccl_ib_hca_value({"mlx5_0", "mlx5_1"}) == "=mlx5_0,mlx5_1");
}

TEST_CASE("node lines render: GresTypes once, a comment per class, deterministic") {
  NodeInventory a = dgx_like("dgx001", 0), x = xe8640_like("gpu001");
  std::vector<NodeLine> lines{node_line_for_class({&a}, "dgx[001-064]"), node_line_for_class({&x}, "gpu[001-002]")};
  const std::string text = render_node_lines(lines, {"slurmtopo emit nodes --nodes-dir n", "22.05"});
  CHECK(text == render_node_lines(lines, {"slurmtopo emit nodes --nodes-dir n", "22.05"}));
  CHECK(text.find("GresTypes=gpu\n") != std::string::npos);
  CHECK(text.find("GresTypes=gpu", text.find("GresTypes=gpu") + 1) == std::string::npos);
  CHECK(text.find("# dgx[001-064]: NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 ") !=
        std::string::npos);
  CHECK(text.find("NodeName=dgx[001-064] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 RealMemory=2042880 "
                  "Gres=gpu:h100:8\n") != std::string::npos);
  CHECK(text.find("NodeName=gpu[001-002] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 RealMemory=") !=
        std::string::npos);
}

TEST_CASE("node lines: no GPUs, no GresTypes and no Gres=") {
  NodeInventory n = dgx_like("cpu1", 0, 0);
  const std::string text = render_node_lines({node_line_for_class({&n}, "cpu1")}, {"", "22.05"});
  CHECK(text.find("GresTypes") == std::string::npos);
  CHECK(text.find("Gres=") == std::string::npos);
  CHECK(text.find("NCCL_IB_HCA") == std::string::npos);
}

TEST_CASE("NCCL_IB_HCA: an Ethernet port on a host with InfiniBand rails is never listed") {
  NodeInventory n = dgx_like("dgx001", 0, 4);
  // A RoCE storage port on GPU 1's own PCIe switch (PIX), its IB rail one step further (NODE).
  RdmaNic eth = n.nics[1];
  eth.name = "mlx5_bond_0";
  eth.link_layer = "Ethernet";
  n.nics.push_back(eth);
  for (size_t g = 0; g < n.gpu_nic.size(); ++g) n.gpu_nic[g].push_back(g == 1 ? PathClass::PIX : PathClass::SYS);
  n.gpu_nic[1][1] = PathClass::NODE;
  const NodeLine l = node_line_for_class({&n}, "dgx001");
  CHECK(l.nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  // A RoCE-only host: its Ethernet ports are the rails.
  NodeInventory roce = dgx_like("r1", 0, 2);
  for (auto& nic : roce.nics) nic.link_layer = "Ethernet";
  CHECK(node_line_for_class({&roce}, "r1").nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_1"});
}

TEST_CASE("NCCL_IB_HCA comment: the layout most hosts of the class have, and which hosts differ") {
  NodeInventory odd = dgx_like("dgx001", 0, 4), b = dgx_like("dgx002", 1, 4), c = dgx_like("dgx003", 2, 4);
  odd.nics[3].name = "mlx5_9";  // the class's model is the odd host
  const NodeLine l = node_line_for_class({&odd, &b, &c}, "dgx[001-003]");
  CHECK(l.nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  const std::string text = render_node_lines({l}, {"", "22.05"});
  CHECK(text.find("# dgx[001-003]: NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2,mlx5_3  (nearest rail NIC of each GPU, in GPU order; "
                  "the layout of 2 of 3 hosts; dgx001 differs)\n") != std::string::npos);
}

TEST_CASE("NCCL_IB_HCA comment: a set, so hosts numbering their NICs in another order have the class's layout") {
  NodeInventory a = dgx_like("jwb0001", 0, 4), b = dgx_like("jwb0004", 1, 4);
  std::swap(a.nics[0].name, a.nics[1].name);  // the model calls GPU 0's NIC mlx5_1
  const NodeLine l = node_line_for_class({&a, &b}, "jwb[0001,0004]");
  CHECK(l.nccl_hcas == std::vector<std::string>{"mlx5_1", "mlx5_0", "mlx5_2", "mlx5_3"});  // the model's GPU order
  CHECK(l.nccl_hosts == 2);
  CHECK(l.nccl_differ.empty());
}

TEST_CASE("NCCL_IB_HCA comment: on a 1-1 tie the class's first host decides, whichever list sorts first") {
  NodeInventory a = dgx_like("n1", 0, 2), b = dgx_like("n2", 1, 2);
  a.nics[1].name = "mlx5_7";  // {mlx5_0, mlx5_7} sorts after b's {mlx5_0, mlx5_1}
  const NodeLine l = node_line_for_class({&a, &b}, "n[1-2]");
  CHECK(l.nccl_hcas == std::vector<std::string>{"mlx5_0", "mlx5_7"});
  CHECK(l.nccl_hosts == 1);
  CHECK(l.nccl_differ == std::vector<std::string>{"n2"});
}
