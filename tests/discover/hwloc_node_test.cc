// Every real hwloc export in ../shared/nodes, loaded as slurmtopo loads them. Expectations
// were derived from the files themselves, independently of this code:
//   lstopo-no-graphics --input FILE --whole-io -v          (the PCI tree, ids, OS devices)
//   hwloc-calc --input FILE pci=<busid> --intersect core    (each GPU's Core L# list)
// and from published `nvidia-smi topo -m` output where one exists (DGX-2, DGX A100).
// Each case says which lines of that output decide the expectation.
#include <doctest/doctest.h>
#include <hwloc.h>

#include <algorithm>
#include <filesystem>
#include <variant>

#include "discover/hwloc_topology.h"
#include "discover/node_json.h"
#include "discover/node_set.h"
#include "tests/discover/hwloc_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;
using V = std::vector<std::string>;

TEST_CASE("hwloc/nvidiaDGX2.xml: 16 V100 behind two-level PLX switches, NVSwitch, no NICs") {
  auto n = shared_node("hwloc/nvidiaDGX2.xml");
  if (!n) return;
  CHECK(n->gpus.size() == 16);
  CHECK(all_types(*n, "v100"));  // NVML: "Tesla V100-SXM3-32GB-H"
  CHECK(gpu_busids(*n) == V{"0000:34:00.0", "0000:36:00.0", "0000:39:00.0", "0000:3b:00.0", "0000:57:00.0",
                            "0000:59:00.0", "0000:5c:00.0", "0000:5e:00.0", "0000:b7:00.0", "0000:b9:00.0",
                            "0000:bc:00.0", "0000:be:00.0", "0000:e0:00.0", "0000:e2:00.0", "0000:e5:00.0",
                            "0000:e7:00.0"});
  CHECK(n->gpus[15].device_file == "/dev/nvidia15");
  CHECK(n->nics.empty());  // the export was trimmed: "Without all CPUs and PCI devices"
  // 34:00.0 and 36:00.0 hang off downstream ports 33:00.0/33:10.0 of one PLX switch (32:00.0):
  // PIX. 39:00.0 is under the other lower switch (37:00.0); both lower switches meet at the
  // top switch 2c:00.0: PXB. 57:00.0 is under host bridge [4e-67], same package: NODE. The
  // b7..e7 GPUs are on package 1: SYS. nvidia-smi topo -m on a DGX-2 (NVIDIA/nccl-tests#78)
  // shows the same shape through its NICs: GPU0 mlx5_0 PIX, mlx5_1 PXB, mlx5_2 NODE, mlx5_4 SYS.
  CHECK(row(n->gpu_gpu[0]) == "X PIX PXB PXB NODE NODE NODE NODE SYS SYS SYS SYS SYS SYS SYS SYS");
  CHECK(row(n->gpu_gpu[6]) == "NODE NODE NODE NODE PXB PXB X PIX SYS SYS SYS SYS SYS SYS SYS SYS");
  CHECK(row(n->gpu_gpu[9]) == "SYS SYS SYS SYS SYS SYS SYS SYS PIX X PXB PXB NODE NODE NODE NODE");
  // NVLinkBandwidth: 25000 between each GPU and the NVSwitch PCI devices of its board, 0 between
  // GPUs. NVML (and so slurmd) sees no direct GPU-GPU link on NVSwitch systems: no Links=.
  // Each V100 has 6 links, one into each NVSwitch of its board: nvidia-smi prints NV6.
  for (const auto& g : n->gpus) {
    CHECK(g.nvlinks.empty());
    CHECK(g.nvswitch_links == 6);
  }
  // Only 4 PUs were kept (1 core each): package 0 = Core L#0-1, package 1 = Core L#2-3.
  CHECK(n->sockets == 2);
  CHECK(n->cores_per_socket == 2);
  CHECK(gpu_cores(*n)[0] == "0-1");
  CHECK(gpu_cores(*n)[8] == "2-3");
  CHECK(n->warnings.empty());
}

TEST_CASE("hwloc/power8gpudistances.xml: P100 NVLink pairs, 2 links x 20000 each") {
  auto n = shared_node("hwloc/power8gpudistances.xml");
  if (!n) return;
  CHECK(gpu_busids(*n) == V{"0002:01:00.0", "0003:01:00.0", "000a:01:00.0", "000b:01:00.0"});
  CHECK(all_types(*n, "p100"));
  // NVLinkBandwidth: nvml0-nvml1 40000, nvml2-nvml3 40000, 0 across; P100 is NVLink 1.0 =
  // 20000 per link in hwloc's NVML backend -> 2 links. GPU<->Package entries are CPU links.
  CHECK(n->gpus[0].nvlinks == std::vector<int>{-1, 2, 0, 0});
  CHECK(n->gpus[1].nvlinks == std::vector<int>{2, -1, 0, 0});
  CHECK(n->gpus[2].nvlinks == std::vector<int>{0, 0, -1, 2});
  CHECK(n->gpus[3].nvlinks == std::vector<int>{0, 0, 2, -1});
  // Each GPU has its own POWER8 host bridge; 0002 and 0003 are on package 0: NODE.
  CHECK(row(n->gpu_gpu[0]) == "X NODE SYS SYS");
  CHECK(gpu_cores(*n) == V{"0-3", "0-3", "4-7", "4-7"});
  CHECK(n->nics.empty());
}

TEST_CASE("hwloc/24em64t-2n6c2t-pci.xml: Tesla M2070 by PCI id only, ConnectX-2 (0c06), BMC VGA ignored") {
  auto n = shared_node("hwloc/24em64t-2n6c2t-pci.xml");
  if (!n) return;
  // 06:00.0, 11:00.0, 14:00.0 are 10de:06d2 class 0302 with no OS device and no PCIDevice
  // name: the PCI id table names them. 01:03.0 (ATI ES1000, 1002:515e, 0300) is the BMC VGA.
  CHECK(gpu_busids(*n) == V{"0000:06:00.0", "0000:11:00.0", "0000:14:00.0"});
  CHECK(all_types(*n, "m2070"));
  CHECK(n->gpus[0].model == "Tesla M2070");
  // 05:00.0 15b3:6746 class 0c06 with OpenFabrics "mlx4_0" (no NodeGUID info in this export).
  REQUIRE(n->nics.size() == 1);
  CHECK(n->nics[0].name == "mlx4_0");
  CHECK(n->nics[0].link_layer == "InfiniBand");
  CHECK(n->nics[0].node_guid == 0);
  // mlx4_0 and GPU0 are on different root ports of host bridge [00-0f]: PHB. 11:00.0 and
  // 14:00.0 sit on root ports 10:07.0 and 10:03.0 of host bridge [10-1f]: PHB between them.
  CHECK(gpu_nic_rows(*n) == V{"PHB", "SYS", "SYS"});
  CHECK(row(n->gpu_gpu[1]) == "SYS X PHB");
  // PUs are interleaved (package 0 = even P#), yet Core L# are socket-major: 0-5 and 6-11.
  CHECK(gpu_cores(*n) == V{"0-5", "6-11", "6-11"});
  CHECK(n->threads_per_core == 2);
}

TEST_CASE("hwloc/32em64t-2n8c2t-pci-wholeio.xml: mixed NVIDIA/AMD functions, device files per vendor") {
  auto n = shared_node("hwloc/32em64t-2n8c2t-pci-wholeio.xml");
  if (!n) return;
  // An edited hwloc test file: 84:00.0 has the M2075 PCI id but its CUDA device says K40m
  // (the OS device's name wins); 84:00.1 is an AMD 0300 function with an OpenCL GPU device,
  // so it is a GPU; the Matrox 0300 VGA at 05:03.0 is not.
  CHECK(gpu_busids(*n) == V{"0000:03:00.0", "0000:83:00.0", "0000:84:00.0", "0000:84:00.1"});
  CHECK(n->gpus[0].slurm_type == "m2075");
  CHECK(n->gpus[2].slurm_type == "k40m");
  CHECK(n->gpus[3].vendor == "amd");
  CHECK(n->gpus[3].slurm_type == "amd_radeon_r9_200_hd_7900_series");  // no product word: safe name
  CHECK(n->gpus[2].device_file == "/dev/nvidia2");
  CHECK(n->gpus[3].device_file == "/dev/dri/renderD128");
  REQUIRE(n->nics.size() == 1);
  CHECK(n->nics[0].name == "mlx5_0");
  CHECK(n->nics[0].node_guid == 0x248a0703001e39feULL);
  CHECK(n->nics[0].port_guids == std::vector<uint64_t>{0x248a0703001e39feULL});
  // The edit put mlx5_0 (04:00.0) under root port 80:03.0 next to 84:00.x: PIX with those.
  CHECK(gpu_nic_rows(*n) == V{"SYS", "PHB", "PIX", "PIX"});
}

TEST_CASE("mpibind/coral-ea-hwloc1.xml (format 1.x): P100 found by PCI class, DRM devices ignored") {
  auto n = shared_node("mpibind/coral-ea-hwloc1.xml");
  if (!n) return;
  // The GPUs carry only DRM card*/renderD* OS devices; 0005:06:00.0 (ASPEED 0300) is the BMC.
  CHECK(gpu_busids(*n) == V{"0002:01:00.0", "0003:01:00.0", "0006:01:00.0", "0007:01:00.0"});
  CHECK(all_types(*n, "p100"));
  CHECK(nic_names(*n) == V{"mlx5_0", "mlx5_1"});
  CHECK(n->nics[0].node_guid == 0x248a07030047ac36ULL);
  CHECK(n->nics[1].node_guid == 0x248a07030047a886ULL);
  // mlx5_0 (0000:01) is on package 0 with GPUs 0002/0003, each on its own host bridge: NODE.
  CHECK(gpu_nic_rows(*n) == V{"NODE SYS", "NODE SYS", "SYS NODE", "SYS NODE"});
  CHECK(gpu_cores(*n) == V{"0-9", "0-9", "10-19", "10-19"});
  CHECK(n->threads_per_core == 8);  // POWER8 SMT8
}

TEST_CASE("mpibind/coral-lassen.xml: V100 pairs under PLX, dual-port CX-5 per socket, offline PUs") {
  auto n = shared_node("mpibind/coral-lassen.xml");
  if (!n) return;
  CHECK(gpu_busids(*n) == V{"0004:04:00.0", "0004:05:00.0", "0035:03:00.0", "0035:04:00.0"});
  CHECK(all_types(*n, "v100"));
  CHECK(nic_names(*n) == V{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  CHECK(n->nics[0].node_guid == 0x506b4b03003ceee8ULL);
  CHECK(n->nics[3].node_guid == 0x506b4b03003ceeebULL);
  // GPUs 0004:04/05 share PLX 0004:01:00.0 (PIX); the NICs are on host bridge 0003: NODE.
  CHECK(gpu_nic_rows(*n) == V{"NODE NODE SYS SYS", "NODE NODE SYS SYS", "SYS SYS NODE NODE", "SYS SYS NODE NODE"});
  CHECK(row(n->gpu_gpu[0]) == "X PIX SYS SYS");
  CHECK(n->gpus[2].numa_node == 8);  // the second POWER9's NUMA node is P#8
  // PUs 0-7 and 88-95 are in complete_cpuset only (offline): 20 cores per socket remain.
  CHECK(n->cores_per_socket == 20);
  CHECK(gpu_cores(*n) == V{"0-19", "0-19", "20-39", "20-39"});
  CHECK(has_warning(*n, "16 PUs are offline"));
  CHECK_FALSE(n->pci_bridges_missing);
}

TEST_CASE("mpibind/cts1-pascal.xml: two P100-PCIE and the HCA on one PLX switch") {
  auto n = shared_node("mpibind/cts1-pascal.xml");
  if (!n) return;
  CHECK(gpu_busids(*n) == V{"0000:04:00.0", "0000:07:00.0"});
  CHECK(all_types(*n, "p100"));
  CHECK(nic_names(*n) == V{"mlx5_0"});
  // 04:00.0, 07:00.0, 08:00.0 on downstream ports 03:04.0, 03:10.0, 03:14.0 of PLX 02:00.0.
  CHECK(gpu_nic_rows(*n) == V{"PIX", "PIX"});
  CHECK(row(n->gpu_gpu[0]) == "X PIX");
  CHECK(gpu_cores(*n) == V{"0-17", "0-17"});
}

TEST_CASE("mpibind/eas-tioga.xml: MI250X GCDs local to one L3 each, Slingshot NICs, XGMI links") {
  auto n = shared_node("mpibind/eas-tioga.xml");
  if (!n) return;
  // 1002:7408 class 0380 with RSMI devices named "AMD INSTINCT MI200 (MCM) ...": the PCI id
  // makes it mi250x. PCI order differs from RSMI order (rsmi4 is at d1:00.0).
  CHECK(gpu_busids(*n) == V{"0000:c1:00.0", "0000:c6:00.0", "0000:c9:00.0", "0000:ce:00.0", "0000:d1:00.0",
                            "0000:d6:00.0", "0000:d9:00.0", "0000:de:00.0"});
  CHECK(all_types(*n, "mi250x"));
  CHECK(n->gpus[7].device_file == "/dev/dri/renderD135");
  // Each GCD hangs off an L3 (one CCD, 8 cores): hwloc-calc pci=0000:c1:00.0 -> cores 48-55.
  CHECK(gpu_cores(*n) == V{"48-55", "56-63", "16-23", "24-31", "0-7", "8-15", "32-39", "40-47"});
  // Slingshot (17db:0501, class 0200): Net hsiN only, no verbs device, no GUID.
  CHECK(nic_names(*n) == V{"hsi0", "hsi1", "hsi2", "hsi3"});
  for (const auto& nic : n->nics) {
    CHECK(nic.link_layer == "Slingshot");
    CHECK(nic.node_guid == 0);
  }
  // hsi0 (c5:00.0) shares host bridge [c4-c6] with c6:00.0 (PHB) and NUMA 3 with c1:00.0 (NODE).
  CHECK(row(n->gpu_nic[0]) == "NODE SYS SYS SYS");
  CHECK(row(n->gpu_nic[1]) == "PHB SYS SYS SYS");
  // XGMIHops is 1 between every pair: one direct XGMI link each (hwloc records 100000 per peer).
  CHECK(n->gpus[0].nvlinks == std::vector<int>{-1, 1, 1, 1, 1, 1, 1, 1});
  CHECK(n->sockets == 1);
  CHECK(n->numa_nodes == 4);
}

TEST_CASE("mpibind/epyc-corona-p2.xml and flux-core/corona.xml: 8x MI50 with a truncated RSMI name") {
  for (const char* file : {"mpibind/epyc-corona-p2.xml", "flux-core/corona.xml"}) {
    CAPTURE(file);
    auto n = shared_node(file);
    if (!n) continue;
    CHECK(gpu_busids(*n) == V{"0000:03:00.0", "0000:27:00.0", "0000:43:00.0", "0000:63:00.0", "0000:83:00.0",
                              "0000:a3:00.0", "0000:c3:00.0", "0000:e3:00.0"});
    CHECK(n->gpus[0].model == "deon Instinct MI50 32GB");  // sic, as RSMI reported it
    CHECK(all_types(*n, "mi50"));
    CHECK(nic_names(*n) == V{"mlx5_0"});
    // mlx5_0 (c4:00.0) shares host bridge [c0-c8] with c3:00.0 only.
    CHECK(gpu_nic_rows(*n) == V{"SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "PHB", "NODE"});
    CHECK(gpu_cores(*n)[0] == "0-23");
    CHECK(gpu_cores(*n)[7] == "24-47");
    for (const auto& g : n->gpus) CHECK(g.nvlinks.empty());  // XGMIHiveID=0: no XGMI matrix
  }
}

TEST_CASE("mpibind/epyc-corona.xml: AMD VGA-class functions that are GPUs (OpenCL device), NPS4") {
  auto n = shared_node("mpibind/epyc-corona.xml");
  if (!n) return;
  // 1002:66a1 class 0300 with OpenCL GPU devices named "Vega 20": GPUs; the PCI id says MI50.
  CHECK(gpu_busids(*n) == V{"0000:13:00.0", "0000:23:00.0", "0000:53:00.0", "0000:73:00.0"});
  CHECK(all_types(*n, "mi50"));
  CHECK(gpu_cores(*n) == V{"6-11", "12-17", "30-35", "42-47"});  // one NPS4 quadrant each
  CHECK(n->numa_nodes == 8);
  // mlx5_0 is on NUMA node 3, no GPU is: SYS for all (different NUMA nodes).
  CHECK(gpu_nic_rows(*n) == V{"SYS", "SYS", "SYS", "SYS"});
}

TEST_CASE("mpibind/g4dnmetal.xml: 8x T4 and an EFA device") {
  auto n = shared_node("mpibind/g4dnmetal.xml");
  if (!n) return;
  CHECK(n->gpus.size() == 8);
  CHECK(all_types(*n, "t4"));
  REQUIRE(n->nics.size() == 1);
  CHECK(n->nics[0].name == "rdmap197s0");
  CHECK(n->nics[0].link_layer == "EFA");  // 1d0f:efa0, class 0200, OpenFabrics device
  CHECK(n->nics[0].pci_busid == "0000:c5:00.0");
  // 18:00.0 and 19:00.0 on root ports 17:00.0/17:02.0 of one host bridge: PHB.
  CHECK(row(n->gpu_gpu[0]) == "X PHB NODE NODE SYS SYS SYS SYS");
  CHECK(gpu_nic_rows(*n) == V{"SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "NODE", "NODE"});
  CHECK(n->warnings.empty());  // captured in a Slurm step, but with every CPU allowed
}

TEST_CASE("flux-core/ipa20.xml: Dell XE8640, 4x H100 with 6 NVLinks per pair, SNC4") {
  auto n = shared_node("flux-core/ipa20.xml");
  if (!n) return;
  CHECK(gpu_busids(*n) == V{"0000:4e:00.0", "0000:5f:00.0", "0000:cb:00.0", "0000:db:00.0"});
  CHECK(all_types(*n, "h100"));
  CHECK(n->gpus[0].model == "NVIDIA H100 80GB HBM3");
  // NVLinkBandwidth 150000 between every pair; NVLink 4.0 = 25000 per link in hwloc: 6 links.
  CHECK(n->gpus[0].nvlinks == std::vector<int>{-1, 6, 6, 6});
  CHECK(n->gpus[3].nvlinks == std::vector<int>{6, 6, 6, -1});
  CHECK(nic_names(*n) == V{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  CHECK(n->nics[0].node_guid == 0x043f720300aea282ULL);  // NodeGUID=043f:7203:00ae:a282
  CHECK(n->nics[2].node_guid == 0xa088c2030009704eULL);
  CHECK(n->nics[3].pci_busid == "0000:da:00.0");
  // 4e:00.0 and 4d:00.0/.1 (CX-6) under Broadcom switch 49:00.0; 5f with 5e (CX-7) under
  // 5a:00.0; db with da under d8:00.0. cb:00.0 (NUMA 7) has no NIC: SYS to all (SNC4: each
  // quadrant is its own NUMA node, so different quadrants are SYS, as the brief defines).
  CHECK(gpu_nic_rows(*n) == V{"PIX PIX SYS SYS", "SYS SYS PIX SYS", "SYS SYS SYS SYS", "SYS SYS SYS PIX"});
  CHECK(gpu_cores(*n) == V{"42-55", "14-27", "98-111", "70-83"});
  CHECK(n->gpus[0].numa_node == 3);
  CHECK(n->sockets == 2);
  CHECK(n->cores_per_socket == 56);
  CHECK(n->threads_per_core == 2);
  CHECK(n->numa_nodes == 8);
  CHECK(n->memory_mib == 4127775);  // 4226842212 KB / 1024
  CHECK(n->hostname == "testhost-nvidia");  // the export's HostName
}

TEST_CASE("flux-core/sierra.xml (1.x): no PCI bridges at all, GPU memory NUMA nodes") {
  auto n = shared_node("flux-core/sierra.xml");
  if (!n) return;
  CHECK(gpu_busids(*n) == V{"0004:04:00.0", "0004:05:00.0", "0035:03:00.0", "0035:04:00.0"});
  CHECK(all_types(*n, "v100"));  // from PCIDevice "GV100GL [Tesla V100 SXM2]", no CUDA model
  CHECK(n->pci_bridges_missing);
  // Its GPUs sit on buses 03-05 below host bridges whose bus is 00: bridges were left out.
  CHECK(has_warning(*n, "export has no PCI bridges: hwloc 1.11.10 left them out, as 1.x exports often do (its devices "
                        "sit on buses below their host bridge's): devices under one host bridge are reported PHB"));
  // Without bridges, the PLX pair 0004:04/05 can only be seen as sharing a host bridge.
  CHECK(row(n->gpu_gpu[0]) == "X PHB SYS SYS");
  CHECK(nic_names(*n) == V{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
  // NUMA nodes 252-255 (16 GB each, no CPUs) are the V100s' HBM: not RealMemory.
  CHECK(n->numa_nodes == 2);
  CHECK(n->memory_mib == (133918272ULL + 133952128ULL) / 1024);
  CHECK(has_warning(*n, "252,253,254,255"));
  CHECK(gpu_cores(*n) == V{"0-21", "0-21", "22-43", "22-43"});
}

TEST_CASE("flux-core/tuo.{SPX,TPX,CPX}.xml: MI300A partitions are GPUs of their own") {
  struct Mode {
    const char* file;
    size_t per_apu;
  };
  for (Mode m : {Mode{"flux-core/tuo.SPX.xml", 1}, Mode{"flux-core/tuo.TPX.xml", 3}, Mode{"flux-core/tuo.CPX.xml", 6}}) {
    CAPTURE(m.file);
    auto n = shared_node(m.file);
    if (!n) continue;
    // 4 PCI functions 1002:74a0 class 1200, each with 1/3/6 RSMI devices.
    REQUIRE(n->gpus.size() == 4 * m.per_apu);
    CHECK(all_types(*n, "mi300a"));
    for (size_t i = 0; i < n->gpus.size(); ++i) {
      const size_t apu = i / m.per_apu;
      CHECK(n->gpus[i].pci_busid == "000" + std::to_string(apu) + ":02:00.0");
      CHECK(n->gpus[i].device_file == "/dev/dri/renderD" + std::to_string(128 + i));
      CHECK(ranges(n->gpus[i].cores) == std::to_string(24 * apu) + "-" + std::to_string(24 * apu + 23));
      // Itself: X; partitions of one function: PIX; other APUs: SYS.
      for (size_t j = 0; j < n->gpus.size(); ++j)
        CHECK(n->gpu_gpu[i][j] == (j == i ? PathClass::X : j / m.per_apu == apu ? PathClass::PIX : PathClass::SYS));
      // hsiN is on the APU's own host bridge (root ports 01.1 and 07.1): PHB.
      CHECK(n->gpu_nic[i][apu] == PathClass::PHB);
      // XGMIHops 1 between every pair of RSMI devices.
      CHECK(n->gpus[i].nvlinks.size() == n->gpus.size());
      CHECK(n->gpus[i].nvlinks[i] == -1);
    }
    CHECK(nic_names(*n) == V{"hsi0", "hsi1", "hsi2", "hsi3"});
    CHECK(n->sockets == 4);
  }
}

TEST_CASE("flux-sched/corona-0.xml and lassen-0.xml (1.x): GPUs without compute devices") {
  if (auto n = shared_node("flux-sched/corona-0.xml")) {
    // 1002:66a1 class 0380, no RSMI/OpenCL device: class and PCI id decide.
    CHECK(gpu_busids(*n) == V{"0000:13:00.0", "0000:23:00.0", "0000:53:00.0", "0000:73:00.0"});
    CHECK(all_types(*n, "mi50"));
    CHECK(nic_names(*n) == V{"mlx5_0"});
    CHECK(n->nics[0].node_guid == 0x98039b0300829b34ULL);
    CHECK(gpu_cores(*n) == V{"6-11", "12-17", "30-35", "42-47"});
  }
  if (auto n = shared_node("flux-sched/lassen-0.xml")) {
    CHECK(all_types(*n, "v100"));  // PCIDevice "GV100GL [Tesla V100 SXM2 16GB]"
    CHECK(row(n->gpu_gpu[0]) == "X PIX SYS SYS");  // this 1.x export kept its bridges
    CHECK_FALSE(n->pci_bridges_missing);
    CHECK(gpu_nic_rows(*n) == V{"NODE NODE SYS SYS", "NODE NODE SYS SYS", "SYS SYS NODE NODE", "SYS SYS NODE NODE"});
    CHECK(n->nics[0].node_guid == 0xec0d9a0300cca092ULL);
  }
}

TEST_CASE("psmgmt: JURECA-DC / JUWELS Booster / MeluXina A100 nodes, one GPU+HCA per switch") {
  for (const char* file : {"psmgmt/topo.jrc0323.xml", "psmgmt/topo.jrc0386.xml", "psmgmt/topo.jwb0001.xml",
                           "psmgmt/topo.jwb0004.xml"}) {
    CAPTURE(file);
    auto n = shared_node(file);
    if (!n) continue;
    // 10de:20b0 without any OS device: the PCI id table says A100-SXM4-40GB.
    CHECK(gpu_busids(*n) == V{"0000:03:00.0", "0000:44:00.0", "0000:84:00.0", "0000:c4:00.0"});
    CHECK(all_types(*n, "a100"));
    // 03:00.0 + 04:00.0 under switch 01:00.0, 44+43 under 41:00.0, 84+83, c4+c3: PIX each.
    CHECK(gpu_nic_rows(*n) == V{"PIX SYS SYS SYS", "SYS PIX SYS SYS", "SYS SYS PIX SYS", "SYS SYS SYS PIX"});
  }
  auto a = shared_node("psmgmt/topo.jrc0323.xml");
  auto b = shared_node("psmgmt/topo.jrc0386.xml");
  if (a && b) {
    // Same hardware, different mlx5_N <-> PCI mapping (hwloc.md): one class all the same.
    CHECK(nic_names(*a) == V{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
    CHECK(nic_names(*b) == V{"mlx5_1", "mlx5_0", "mlx5_3", "mlx5_2"});
    CHECK(a->hardware_signature() == b->hardware_signature());
    CHECK(gpu_cores(*a) == V{"48-63", "16-31", "112-127", "80-95"});
  }
  if (auto n = shared_node("psmgmt/topo.jwb0004.xml")) CHECK(gpu_cores(*n) == V{"18-23", "6-11", "42-47", "30-35"});
  if (auto n = shared_node("psmgmt/topo.mel2001.xml")) {
    // Two HCAs for four GPUs: 03:00.0 and c3:00.0 have none on their switch.
    CHECK(all_types(*n, "a100"));
    CHECK(gpu_nic_rows(*n) == V{"SYS SYS", "PIX SYS", "SYS PIX", "SYS SYS"});
    CHECK(gpu_cores(*n) == V{"24-31", "8-15", "56-63", "40-47"});
  }
}

TEST_CASE("psmgmt: single-GPU and V100 nodes, an Ethernet-mode ConnectX port") {
  if (auto n = shared_node("psmgmt/topo.jsfc005.xml")) {
    CHECK(all_types(*n, "v100"));  // 10de:1db4
    REQUIRE(n->nics.size() == 2);
    CHECK(n->nics[0].name == "mlx5_0");
    CHECK(n->nics[0].link_layer == "Ethernet");  // class 0200 with a verbs device: RoCE
    CHECK(n->nics[0].port_guids.empty());
    CHECK(n->nics[1].link_layer == "InfiniBand");
    CHECK(n->nics[1].node_guid == 0xb8599f0300e42cfbULL);
  }
  if (auto n = shared_node("psmgmt/topo.dp-esb01.xml")) {
    // I/O hangs off the Machine (one socket): the GPU is local to every core.
    CHECK(gpu_busids(*n) == V{"0000:65:00.0"});
    CHECK(n->gpus[0].model == "Tesla V100-PCIE-32GB");  // from the PCI id 10de:1db6
    CHECK(gpu_cores(*n) == V{"0-7"});
    CHECK(gpu_nic_rows(*n) == V{"NODE"});
  }
  if (auto n = shared_node("psmgmt/topo.jwc09n003.xml")) {
    CHECK(all_types(*n, "v100"));
    CHECK(gpu_nic_rows(*n) == V{"PIX SYS", "PIX SYS", "SYS PIX", "SYS PIX"});
    CHECK(gpu_cores(*n) == V{"0-19", "0-19", "20-39", "20-39"});
  }
}

TEST_CASE("synthetic/dgxa100-quadrant-from-gds-guide.xml: XML comments, DGX A100 PXB layout") {
  auto n = shared_node("synthetic/dgxa100-quadrant-from-gds-guide.xml");
  if (!n) return;
  // The file starts with an XML comment, which hwloc 2.9's own parser rejects; it loads.
  CHECK(gpu_busids(*n) == V{"0000:07:00.0", "0000:0f:00.0"});
  CHECK(all_types(*n, "a100"));
  CHECK(nic_names(*n) == V{"mlx5_0"});
  // Two switch levels between each GPU and mlx5_0: PXB, as `nvidia-smi topo -m` on a DGX A100
  // prints GPU0-mlx5_0 (NVIDIA/nccl#1505).
  CHECK(gpu_nic_rows(*n) == V{"PXB", "PXB"});
  CHECK(row(n->gpu_gpu[0]) == "X PXB");
}

// ---- bad input ----------------------------------------------------------------------------

namespace {

InputError error_of(const std::string& path) {
  try {
    load_node_xml(path, "x");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for " << path);
  return InputError("", 0, "");
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("load_node_xml: XML format 3.0 is refused with the way out") {
  auto src = shared_node_file("flux-core/ipa20.xml");
  if (!src) return;
  ScratchDir s;
  const std::string path =
      s.write("v3.xml", replace_once(read_text(*src), "<topology version=\"2.0\">", "<topology version=\"3.0\">"));
  const InputError e = error_of(path);
  CHECK(e.line() == 3);
  CHECK(std::string(e.what()).find("hwloc 2.9 cannot read XML format 3.0") != std::string::npos);
  CHECK(std::string(e.what()).find("lstopo --of xml") != std::string::npos);
}

TEST_CASE("load_node_xml: a truncated export, an empty file, not an export") {
  auto src = shared_node_file("flux-core/ipa20.xml");
  if (!src) return;
  ScratchDir s;
  const std::string text = read_text(*src);
  const std::string cut = text.substr(0, text.size() / 2);
  InputError e = error_of(s.write("cut.xml", cut));
  CHECK(std::string(e.what()).find("truncated XML") != std::string::npos);
  const std::string kept = cut.substr(0, cut.find_last_not_of(" \t\r\n"));
  CHECK(e.line() == 1 + static_cast<int>(std::count(kept.begin(), kept.end(), '\n')));  // the last line read
  CHECK(std::string(error_of(s.write("empty.xml", "\n")).what()).find("empty file") != std::string::npos);
  CHECK(std::string(error_of(s.write("other.xml", "<?xml version=\"1.0\"?>\n<svg></svg>\n")).what())
            .find("no <topology> element") != std::string::npos);
  CHECK(std::string(error_of(s.path("absent.xml")).what()).find("cannot read") != std::string::npos);
}

TEST_CASE("load_node_xml: an export without I/O objects warns and has no GPUs") {
  auto src = shared_node_file("flux-core/ipa20.xml");
  if (!src) return;
  // What `lstopo --no-io --of xml` writes: load with hwloc's default (I/O-less) filters and
  // export again.
  hwloc_topology_t t;
  hwloc_topology_init(&t);
  hwloc_topology_set_xml(t, src->c_str());
  REQUIRE(hwloc_topology_load(t) == 0);
  char* buf = nullptr;
  int len = 0;
  REQUIRE(hwloc_topology_export_xmlbuffer(t, &buf, &len, 0) == 0);
  const std::string xml(buf, static_cast<size_t>(len > 0 ? len - 1 : 0));
  hwloc_free_xmlbuffer(t, buf);
  hwloc_topology_destroy(t);
  ScratchDir s;
  const NodeInventory n = load_node_xml(s.write("noio.xml", xml), "ipa20");
  CHECK(n.gpus.empty());
  CHECK(n.nics.empty());
  CHECK(has_warning(n, "no I/O devices in export (exported with --no-io?)"));
  CHECK(n.sockets == 2);  // the CPU side is still there
  CHECK(n.cores_per_socket == 56);
}

TEST_CASE("load_node_xml: a capture restricted to a cgroup keeps the whole node's cores") {
  auto src = shared_node_file("flux-core/ipa20.xml");
  if (!src) return;
  const NodeInventory whole = load_node_xml(*src, "");
  // As if lstopo ran inside a Slurm step holding PUs 0-15 only.
  const std::string all = "allowed_cpuset=\"0xffffffff,0xffffffff,0xffffffff,0xffffffff,0xffffffff,0xffffffff,0xffffffff\"";
  ScratchDir s;
  const std::string path = s.write("cgroup.xml", replace_once(read_text(*src), all, "allowed_cpuset=\"0x0000ffff\""));
  const NodeInventory n = load_node_xml(path, "");
  CHECK(has_warning(n, "captured inside a cgroup: only 16 of 224 PUs were allowed"));
  CHECK(n.cores_per_socket == 56);
  CHECK(gpu_cores(n) == gpu_cores(whole));
  CHECK(n.hardware_signature() == whole.hardware_signature());
}

TEST_CASE("load_hwloc_xml_text: comments anywhere, including before <topology>") {
  auto src = shared_node_file("hwloc/power8gpudistances.xml");
  if (!src) return;
  std::string text = read_text(*src);
  text = replace_once(text, "<topology", "<!-- a note\n  over two lines -->\n<topology");
  text = replace_once(text, "</topology>", "<!-- trailing note --></topology>");
  const HwlocTopology t = load_hwloc_xml_text(text, "commented.xml");
  CHECK(hwloc_get_nbobjs_by_type(t.get(), HWLOC_OBJ_PACKAGE) == 2);
  CHECK_THROWS_AS(load_hwloc_xml_text(replace_once(text, "-->\n<topology", "\n<topology"), "open.xml"), InputError);
}

TEST_CASE("discover_local_node: this machine loads (whatever it has)") {
  const NodeInventory n = discover_local_node();
  CHECK(n.source == "live");
  CHECK(n.sockets >= 1);
  CHECK(n.cores_per_socket >= 1);
  CHECK(n.memory_mib > 0);
  CHECK(n.gpu_nic.size() == n.gpus.size());
}

namespace {

const std::filesystem::path kBadHwloc = std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "tests/bad/hwloc";

// What load_node_xml (the node's JSON) or its error (what()) says of one file.
std::string in_process(const std::string& path) {
  try {
    return node_to_json(load_node_xml(path, ""));
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

std::string from_children(const std::variant<NodeInventory, InputError>& r) {
  if (auto* n = std::get_if<NodeInventory>(&r)) return node_to_json(*n);
  return std::string("error: ") + std::get<InputError>(r).what();
}

}  // namespace

TEST_CASE("load_node_xmls: file by file what load_node_xml gives, for every real export and every bad one") {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(kBadHwloc)) paths.push_back(e.path().string());
  if (std::filesystem::exists(kSharedNodes)) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(kSharedNodes))
      if (e.path().extension() == ".xml") paths.push_back(e.path().string());
  } else {
    skip(kSharedNodes.string() + " is not available");
  }
  std::sort(paths.begin(), paths.end());
  const auto loaded = load_node_xmls(paths, 2);
  REQUIRE(loaded.size() == paths.size());
  size_t nodes = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    CAPTURE(paths[i]);
    CHECK(from_children(loaded[i]) == in_process(paths[i]));  // errors with their file:line too
    nodes += std::holds_alternative<NodeInventory>(loaded[i]);
  }
  CHECK(nodes > 0);
}

TEST_CASE("load_node_xmls: after a file libhwloc crashes on, the same child's next files still load") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  const std::string good = read_text(*ipa), crash = read_text((kBadHwloc / "pu-without-complete-cpuset.xml").string());
  const std::vector<std::string> paths = {
      s.write("a.xml", good),  s.write("b.xml", crash), s.write("c.xml", good),
      s.write("d.xml", read_text((kBadHwloc / "no-numa.xml").string())), s.write("e.xml", crash),
      s.write("f.xml", good.substr(0, 5000)), s.write("g.xml", good)};
  for (unsigned parallel : {1u, 2u}) {  // 1: one child has every file, and is replaced twice
    CAPTURE(parallel);
    const auto loaded = load_node_xmls(paths, parallel);
    for (size_t i : {0, 2, 6}) {
      REQUIRE(std::holds_alternative<NodeInventory>(loaded[i]));
      CHECK(std::get<NodeInventory>(loaded[i]).gpus.size() == 4);
      CHECK(std::get<NodeInventory>(loaded[i]).source == paths[i]);
    }
    for (size_t i : {1, 4}) {
      REQUIRE(std::holds_alternative<InputError>(loaded[i]));
      CHECK(std::string(std::get<InputError>(loaded[i]).what()) ==
            paths[i] + ": libhwloc crashes on this XML export (Segmentation fault; lstopo does too): the file is "
                       "damaged — export it again on the node with `lstopo --of xml` (or `slurmtopo collect`)");
    }
    REQUIRE(std::holds_alternative<InputError>(loaded[3]));  // hwloc's reason, from the child's stderr
    CHECK(std::string(std::get<InputError>(loaded[3]).what()).find("(Topology does not contain any NUMA node") !=
          std::string::npos);
    REQUIRE(std::holds_alternative<InputError>(loaded[5]));  // our check, its line kept across the pipe
    CHECK(std::get<InputError>(loaded[5]).file() == paths[5]);
    CHECK(std::get<InputError>(loaded[5]).line() > 0);
    CHECK(std::string(std::get<InputError>(loaded[5]).what()).find("truncated XML") != std::string::npos);
  }
}

TEST_CASE("measured/h200-vm: hwloc 2.9 on a VM, whose PCI tree is flat, is told from an old export") {
  auto n = shared_node("measured/h200-vm/h200-vm.xml");
  if (!n) return;
  CHECK(n->pci_bridges_missing);
  CHECK(has_warning(*n, "export has no PCI bridges: its PCI tree is flat (hwloc 2.9.0; all 7 PCI devices sit directly on "
                        "their host bridge's bus, as in a VM, whose hypervisor hides the host's PCIe switches)"));
  for (const auto& w : n->warnings) CHECK(w.find("1.11") == std::string::npos);
  // nvidia-smi topo -m prints X for a GPU against itself.
  for (size_t g = 0; g < n->gpus.size(); ++g) CHECK(n->gpu_gpu[g][g] == PathClass::X);
}

TEST_CASE("a damaged export whose packages hold no core is an InputError at the package, never \"does not read back\"") {
  const std::string bad = (std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "tests/bad/hwloc/package-without-cores.xml").string();
  const std::string expected = ":5: expected each package to hold cores (Slurm's CoresPerSocket); no package holds one";
  try {
    load_node_xml(bad, "node01");
    FAIL("loads");
  } catch (const InputError& e) {
    CHECK(e.line() == 5);
    CHECK(std::string(e.what()).find(bad + expected) == 0);
  }
  // The same through a node directory, where each export loads in a child and comes back as JSON.
  ScratchDir s;
  s.write("nodes/node01.xml", read_text(bad));
  const auto loaded = load_node_xmls({s.path("nodes/node01.xml")}, 1);
  REQUIRE(std::holds_alternative<InputError>(loaded[0]));
  CHECK(std::string(std::get<InputError>(loaded[0]).what()).find(s.path("nodes/node01.xml") + expected) == 0);
}

TEST_CASE("a NUMA node number no kernel gives is an InputError at its line, loaded alone or from a directory") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  std::string text = read_text(*ipa);
  const std::string numa3 = "type=\"NUMANode\" os_index=\"3\"";
  REQUIRE(text.find(numa3) != std::string::npos);
  text.replace(text.find(numa3), numa3.size(), "type=\"NUMANode\" os_index=\"3000000\"");  // GPU 0's NUMA node
  ScratchDir s;
  const std::string path = s.write("nodes/n1.xml", text);
  const std::string expected = "expected a NUMA node number as Linux gives them (below 1048576), not 3000000";
  try {
    load_node_xml(path, "");
    FAIL("loads");
  } catch (const InputError& e) {
    CHECK(e.line() > 0);
    CHECK(std::string(e.what()).find(expected) != std::string::npos);
  }
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  CHECK_THROWS_WITH_AS(load_node_set(src), doctest::Contains(expected.c_str()), InputError);
}

TEST_CASE("damaged strings and link matrices in an export: a node is still described, the damage said") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  const std::string good = read_text(*ipa);
  ScratchDir s;
  // A model name that is not UTF-8: the node comes back from its child as JSON, with U+FFFD.
  std::string latin1 = good;
  for (size_t at; (at = latin1.find("NVIDIA H100 80GB HBM3")) != std::string::npos;)
    latin1.replace(at, 21, "NVIDIA H100 80GB \xff\xfe");
  s.write("latin1.xml", latin1);
  const auto loaded = load_node_xmls({s.path("latin1.xml")}, 1);
  REQUIRE(std::holds_alternative<NodeInventory>(loaded[0]));
  const NodeInventory& n = std::get<NodeInventory>(loaded[0]);
  REQUIRE(n.gpus.size() == 4);
  CHECK(n.gpus[0].model == "NVIDIA H100 80GB \xef\xbf\xbd\xef\xbf\xbd");
  CHECK(n.gpus[0].slurm_type == "h100");
  // An NVLink bandwidth of 4e9 links (cast to int it wrapped, and 0 links were written).
  const std::string row = "<u64values length=\"72\">1000000 150000 150000 150000 150000 1000000 150000 150000 150000 150000 </u64values>";
  const std::string values = "1000000 99999999999999 150000 150000 150000 1000000 150000 150000 150000 150000 ";
  std::string wide = good;
  REQUIRE(wide.find(row) != std::string::npos);
  wide.replace(wide.find(row), row.size(), "<u64values length=\"" + std::to_string(values.size()) + "\">" + values + "</u64values>");
  const NodeInventory links = load_node_xml(s.write("links.xml", wide), "");
  CHECK(has_warning(links, "NVLink bandwidth 99999999999999 between GPU 0 and GPU 1 would be 4000000000 links, more than any GPU "
                           "has (a damaged export?): no Links= derived"));
  for (const Gpu& g : links.gpus) CHECK(g.nvlinks.empty());
}

