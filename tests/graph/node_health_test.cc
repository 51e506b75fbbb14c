// Node health from the probe records. The base is the real H200 node's capture
// (../shared/nodes/measured/h200-vm: nvidia-smi -q and its sysfs PCI figures, no InfiniBand),
// with RDMA ports added where a finding needs them; each fault is injected into a copy and must
// give its finding, naming the device and the fix, while the unmodified capture gives none.
#include "graph/node_health.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "base/files.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

const std::string kH200 = SLURMTOPO_SOURCE_DIR "/../shared/nodes/measured/h200-vm/";

bool have_h200() {
  if (std::filesystem::exists(kH200 + "nvidia-smi-q.txt") && std::filesystem::exists(kH200 + "sysfs-pci.txt"))
    return true;
  slurmtopo::testing::skip(kH200 + " is absent");
  return false;
}

const char* kPort0 = "mlx5_0\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)\t"
                     "link_layer=InfiniBand\tpci=0000:00:07.0\tfw=28.39.1002\n";
const char* kPort1 = "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)\t"
                     "link_layer=InfiniBand\tpci=0000:00:08.0\tfw=28.39.1002\n";
const char* kProprietary = "nvidia NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Release Build\n";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return s.replace(at, from.size(), to);
}

struct Record {
  std::string pci, ib, gdr = "module nvidia_peermem\n", smi;
  std::string text(const std::string& host) const {
    return "slurmtopo-probe 1\nwhere host\nhost " + host + "\nkernel 6.8.0-49-generic\n[pci]\n" + pci + "[ib]\n" + ib +
           "[gdr]\n" + gdr + "[verbs]\n[cuda]\n[env]\n[nvidia-smi]\n" + smi + "[missing]\nslurmtopo-probe-end\n";
  }
};

Record h200() {
  Record r;
  r.pci = read_file(kH200 + "sysfs-pci.txt");
  r.smi = read_file(kH200 + "nvidia-smi-q.txt");
  return r;
}

// One node (or several of one class), each GPU's nearest NIC given as the join would.
struct Nodes {
  NodeSet set;
  NodeJoin join;
  // `rail`: GPU 0's nearest NIC; `rail2`: a second GPU's (a node with two rails).
  void add(const std::string& host, const Record& r, const std::string& rail = "", const std::string& rail2 = "") {
    NodeInventory n;
    n.hostname = host;
    n.gpus.push_back({});
    n.gpus.back().pci_busid = "0000:00:06.0";
    n.probe = parse_node_probe(r.text(host), host + ".probe");
    set.nodes.push_back(std::move(n));
    HostJoin h;
    h.node = set.nodes.size() - 1;
    GpuPath p;
    p.nic_name = rail;
    h.gpus.push_back(p);
    if (!rail2.empty()) {
      p.gpu = 1;
      p.nic_name = rail2;
      h.gpus.push_back(p);
    }
    join.hosts.push_back(h);
    set.classes = group_node_classes(set.nodes);
  }
  std::vector<HostFinding> findings() const { return node_health_findings(set, join); }
};

std::vector<std::string> of_kind(const std::vector<HostFinding>& all, NodeAnomaly::Kind kind) {
  std::vector<std::string> out;
  for (const HostFinding& f : all)
    if (f.kind == kind) out.push_back(f.host + ": " + f.detail);
  return out;
}

}  // namespace

TEST_CASE("node health: the real H200 node as captured has nothing wrong") {
  if (!have_h200()) return;
  Nodes n;
  n.add("vm", h200());
  CHECK(n.findings().empty());
}

TEST_CASE("pcie-downtrained: the H200 at x8 is half its bandwidth, and parked at Gen1 it is idle, not a fault") {
  if (!have_h200()) return;
  Record r = h200();
  // nvidia-smi -q's "Link Width" block: Max 16x, Current 16x.
  r.smi = replaced(r.smi, "Current                                : 16x", "Current                                : 8x");
  Nodes n;
  n.add("vm", r);
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::PcieDowntrained);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("vm: GPU 0 (0000:00:06.0) at x8 Gen5, capable of x16 Gen5: half its PCIe bandwidth") == 0);
  CHECK(f[0].find("reseat") != std::string::npos);

  Record idle = h200();
  idle.smi = replaced(idle.smi, "Current                                : 5", "Current                                : 1");
  Nodes i;
  i.add("vm", idle);
  CHECK(of_kind(i.findings(), NodeAnomaly::Kind::PcieDowntrained).empty());

  Record gen4 = h200();
  gen4.smi = replaced(gen4.smi, "Current                                : 5", "Current                                : 4");
  Nodes g;
  g.add("vm", gen4);
  f = of_kind(g.findings(), NodeAnomaly::Kind::PcieDowntrained);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("at x16 Gen4, capable of x16 Gen5: half its PCIe bandwidth") != std::string::npos);

  // Without nvidia-smi, sysfs decides: the same GPU trained at x8 in the [pci] line.
  Record sysfs = h200();
  sysfs.smi.clear();
  sysfs.pci = replaced(sysfs.pci, "link=32.0 GT/s PCIe/16", "link=32.0 GT/s PCIe/8");
  Nodes s;
  s.add("vm", sysfs);
  f = of_kind(s.findings(), NodeAnomaly::Kind::PcieDowntrained);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("GPU 0 (0000:00:06.0) at x8 Gen5, capable of x16 Gen5") != std::string::npos);
}

TEST_CASE("pcie-downtrained: a NIC below its speed, by its mlx5 name") {
  if (!have_h200()) return;
  Record r = h200();
  r.pci += "0000:00:07.0 class=0x020700 vendor=0x15b3 device=0x1021 numa=0 link=16.0 GT/s PCIe/16 max=32.0 GT/s PCIe/16\n";
  r.ib = kPort0;
  Nodes n;
  n.add("vm", r, "mlx5_0");
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::PcieDowntrained);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("vm: mlx5_0 (0000:00:07.0) at x16 Gen4, capable of x16 Gen5: half its PCIe bandwidth") == 0);

  // The same NIC under a Gen4 slot (its upstream port's maximum) trains at Gen4 by design.
  Record slot = r;
  slot.pci = replaced(slot.pci, "max=32.0 GT/s PCIe/16\n0000:00:07.0", "max=32.0 GT/s PCIe/16\n0000:00:07.0");
  slot.pci = replaced(slot.pci, "link=16.0 GT/s PCIe/16 max=32.0 GT/s PCIe/16",
                      "link=16.0 GT/s PCIe/16 max=32.0 GT/s PCIe/16 up=16.0 GT/s PCIe/16");
  Nodes g4;
  g4.add("vm", slot, "mlx5_0");
  CHECK(of_kind(g4.findings(), NodeAnomaly::Kind::PcieDowntrained).empty());
  // Under a Gen5 x16 slot the Gen4 is the card's fault again.
  slot.pci = replaced(slot.pci, "up=16.0 GT/s PCIe/16", "up=32.0 GT/s PCIe/16");
  Nodes g5;
  g5.add("vm", slot, "mlx5_0");
  CHECK(of_kind(g5.findings(), NodeAnomaly::Kind::PcieDowntrained).size() == 1);
}

TEST_CASE("nic-port-down, nic-port-slow, nic-port-ethernet: a rail port, named with the GPU it serves") {
  if (!have_h200()) return;
  Record base = h200();
  base.ib = std::string(kPort0) + kPort1;
  Nodes ok;
  ok.add("vm", base, "mlx5_1");
  CHECK(ok.findings().empty());

  Record down = base;
  down.ib = replaced(down.ib, "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp",
                     "mlx5_1\tport=1\tstate=1: DOWN\tphys_state=2: Polling");
  Nodes d;
  d.add("vm", down, "mlx5_1");
  auto f = of_kind(d.findings(), NodeAnomaly::Kind::PortDown);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("vm: mlx5_1 port 1 (the NIC of GPU 0) is DOWN, without link (Polling): check the cable") == 0);
  // A second port nobody uses and no peer has ACTIVE is left uncabled on purpose.
  Nodes spare;
  spare.add("vm", down, "mlx5_0");
  CHECK(of_kind(spare.findings(), NodeAnomaly::Kind::PortDown).empty());

  Record slow = base;
  slow.ib = replaced(slow.ib, "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)",
                     "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=200 Gb/sec (4X HDR)");
  Nodes s;
  s.add("vm", slow, "mlx5_1", "mlx5_0");
  f = of_kind(s.findings(), NodeAnomaly::Kind::PortSlow);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("mlx5_1 port 1 (the NIC of GPU 0) is ACTIVE at 200 Gb/sec (4X HDR) where the node's other rails "
                  "run 400 Gb/s") != std::string::npos);

  Record eth = base;
  eth.ib = replaced(eth.ib, "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)\t"
                            "link_layer=InfiniBand",
                    "mlx5_1\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)\t"
                    "link_layer=Ethernet");
  Nodes e;
  e.add("vm", eth, "mlx5_1", "mlx5_0");
  f = of_kind(e.findings(), NodeAnomaly::Kind::PortEthernet);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("runs Ethernet where the node's other rails are InfiniBand") != std::string::npos);
  CHECK(f[0].find("mlxconfig LINK_TYPE_P1=1") != std::string::npos);
}

TEST_CASE("nic-port-down: a port the class's other hosts have ACTIVE") {
  if (!have_h200()) return;
  Record up = h200();
  up.ib = std::string(kPort0) + kPort1;
  Record down = up;
  down.ib = replaced(down.ib, "mlx5_1\tport=1\tstate=4: ACTIVE", "mlx5_1\tport=1\tstate=1: DOWN");
  Nodes n;
  n.add("gpu001", up, "mlx5_0");
  n.add("gpu002", up, "mlx5_0");
  n.add("gpu003", down, "mlx5_0");
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::PortDown);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("gpu003: mlx5_1 port 1 is DOWN") == 0);
  CHECK(f[0].find("it is ACTIVE on 2 of 2 other hosts of its class") != std::string::npos);
}

TEST_CASE("no-gpudirect: no peer-memory module and the proprietary kernel module") {
  if (!have_h200()) return;
  Record r = h200();
  r.ib = kPort0;
  r.gdr = kProprietary;
  Nodes n;
  n.add("vm", r, "mlx5_0");
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::NoGpuDirect);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("the proprietary NVIDIA kernel module") != std::string::npos);
  CHECK(f[0].find("modprobe nvidia-peermem") != std::string::npos);
  // nvidia-peermem loaded, or the open module on a recent kernel (DMA-BUF): GPUDirect works.
  r.gdr = std::string(kProprietary) + "module nvidia_peermem\n";
  Nodes p;
  p.add("vm", r, "mlx5_0");
  CHECK(of_kind(p.findings(), NodeAnomaly::Kind::NoGpuDirect).empty());
  r.gdr = "nvidia NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build\n";
  Nodes o;
  o.add("vm", r, "mlx5_0");
  CHECK(of_kind(o.findings(), NodeAnomaly::Kind::NoGpuDirect).empty());
  // No RDMA port at all (the real VM): nothing to say about GPUDirect RDMA.
  Record vm = h200();
  vm.gdr = kProprietary;
  Nodes v;
  v.add("vm", vm);
  CHECK(of_kind(v.findings(), NodeAnomaly::Kind::NoGpuDirect).empty());
}

TEST_CASE("gpu-memory-errors: a pending row remap asks for a GPU reset") {
  if (!have_h200()) return;
  Record r = h200();
  r.smi = replaced(r.smi, "        Pending                                        : No\n        Remapping Failure",
                   "        Pending                                        : Yes\n        Remapping Failure");
  Nodes n;
  n.add("vm", r);
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::GpuMemory);
  REQUIRE(f.size() == 1);
  CHECK(f[0] == "vm: GPU 0 (0000:00:06.0): a row remap is pending: drain the node and reset the GPU (nvidia-smi -r) "
                "before jobs run");
}

TEST_CASE("class-drift: one host of a class on another driver") {
  if (!have_h200()) return;
  Record a = h200();
  Record b = h200();
  b.smi = replaced(b.smi, "580.159.04", "570.86.15");
  Nodes n;
  n.add("gpu001", a);
  n.add("gpu002", a);
  n.add("gpu003", b);
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::ClassDrift);
  REQUIRE(f.size() == 1);
  CHECK(f[0] == "gpu003: NVIDIA driver 570.86.15 where 2 other hosts of its class (gpu[001-002]) have 580.159.04");
}

TEST_CASE("container findings: no uverbs, no provider, NCCL_IB_HCA, CUDA newer than the driver") {
  if (!have_h200()) return;
  Record host = h200();
  host.ib = std::string(kPort0) + kPort1;
  auto container = [](const std::string& verbs, const std::string& cuda, const std::string& env,
                      const std::string& smi) {
    return parse_node_probe("slurmtopo-probe 1\nwhere container\nhost vm\nkernel 6.8.0\n[pci]\n[ib]\n[gdr]\n[verbs]\n" +
                                verbs + "[cuda]\n" + cuda + "[env]\n" + env + "[nvidia-smi]\n" + smi +
                                "[missing]\nslurmtopo-probe-end\n",
                            "vm.container.probe");
  };
  const std::string good_verbs = "dev uverbs0\ndev uverbs1\nlib /usr/lib/x86_64-linux-gnu/libibverbs.so.1\n"
                                 "provider mlx5.driver driver mlx5\n";
  auto findings = [&](const NodeProbe& c) {
    Nodes n;
    n.add("vm", host, "mlx5_1");
    n.set.nodes[0].container_probe = c;
    return n.findings();
  };
  const std::string smi = read_file(kH200 + "nvidia-smi-q.txt");  // driver 580.159.04, CUDA 13.0
  CHECK(findings(container(good_verbs, "toolkit 12.8.1\n", "NCCL_IB_HCA=mlx5\n", smi)).empty());

  auto f = of_kind(findings(container("", "", "", smi)), NodeAnomaly::Kind::NoRdmaDevice);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("NCCL will fall back to TCP sockets over the bootstrap interface") != std::string::npos);

  f = of_kind(findings(container("dev uverbs0\n", "", "", smi)), NodeAnomaly::Kind::NoVerbsProvider);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("the image has no libibverbs") != std::string::npos);

  f = of_kind(findings(container(good_verbs, "", "NCCL_IB_HCA==mlx5_0,mlx5_9\n", smi)), NodeAnomaly::Kind::NcclIbHca);
  REQUIRE(f.size() == 2);
  CHECK(f[0] == "vm: NCCL_IB_HCA==mlx5_0,mlx5_9 names mlx5_9, which this node does not have (NCCL matches verbs "
                "device names, as ibv_devices lists them, not netdevs)");
  CHECK(f[1] == "vm: NCCL_IB_HCA==mlx5_0,mlx5_9 leaves out mlx5_1 (GPU 0): those GPUs' traffic crosses to another "
                "rail's NIC");

  // The driver as a CUDA 12.4 node has it: a CUDA 13 image does not start, unless it brings cuda-compat.
  std::string old_driver = replaced(replaced(smi, "580.159.04", "550.54.15"), ": 13.0", ": 12.4");
  f = of_kind(findings(container(good_verbs, "toolkit 13.0.1\n", "", old_driver)), NodeAnomaly::Kind::CudaTooNew);
  REQUIRE(f.size() == 1);
  CHECK(f[0] == "vm: the image's CUDA 13.0.1 needs a driver of the CUDA 13 branch (580 or later), or the image's "
                "cuda-compat package; this node's driver 550.54.15 runs CUDA 12.4 at most: CUDA calls fail at start "
                "('driver version is insufficient')");
  CHECK(of_kind(findings(container(good_verbs, "toolkit 13.0.1\ncompat /usr/local/cuda/compat/libcuda.so.580.65.06\n",
                                   "", old_driver)),
                NodeAnomaly::Kind::CudaTooNew)
            .empty());
  // A newer minor of the same major runs (minor-version compatibility).
  CHECK(of_kind(findings(container(good_verbs, "toolkit 12.8.0\n", "", old_driver)), NodeAnomaly::Kind::CudaTooNew)
            .empty());
}

TEST_CASE("NCCL_IB_HCA matching as NCCL does it") {
  CHECK(nccl_ib_hca_uses("mlx5_1", "mlx5_10", 1));  // a prefix without '='
  CHECK_FALSE(nccl_ib_hca_uses("=mlx5_1", "mlx5_10", 1));
  CHECK(nccl_ib_hca_uses("^mlx5_0", "mlx5_1", 1));
  CHECK_FALSE(nccl_ib_hca_uses("^mlx5_0", "mlx5_0", 1));
  CHECK_FALSE(nccl_ib_hca_uses("^=mlx5_0", "mlx5_0", 1));
  CHECK(nccl_ib_hca_uses("^=mlx5_0", "mlx5_00", 1));
  CHECK(nccl_ib_hca_uses("mlx5_0:1,mlx5_1:1", "mlx5_1", 1));
  CHECK_FALSE(nccl_ib_hca_uses("mlx5_0:2", "mlx5_0", 1));
}

TEST_CASE("class-drift stays quiet on a class that agrees, and probe-incomplete fires on a cut record") {
  if (!have_h200()) return;
  Nodes same;
  same.add("gpu001", h200());
  same.add("gpu002", h200());
  same.add("gpu003", h200());
  CHECK(same.findings().empty());

  Nodes cut;
  cut.add("vm", h200());
  const std::string whole = h200().text("vm");
  cut.set.nodes[0].probe = parse_node_probe(whole.substr(0, whole.find("[missing]")), "vm.probe");
  auto f = of_kind(cut.findings(), NodeAnomaly::Kind::ProbeIncomplete);
  REQUIRE(f.size() == 1);
  CHECK(f[0].find("vm: vm.probe ends before the probe's end marker") == 0);
}

TEST_CASE("nccl-version-drift: one container of a class with another NCCL, quiet when they agree") {
  if (!have_h200()) return;
  auto container = [](const std::string& host, const std::string& nccl) {
    return parse_node_probe("slurmtopo-probe 1\nwhere container\nhost " + host +
                                "\nkernel 6.8.0\n[verbs]\n[cuda]\nnccl /usr/lib/x86_64-linux-gnu/libnccl.so." + nccl +
                                "\nslurmtopo-probe-end\n",
                            host + ".container.probe");
  };
  Nodes n;
  n.add("gpu001", h200());
  n.add("gpu002", h200());
  n.add("gpu003", h200());
  n.set.nodes[0].container_probe = container("gpu001", "2.21.5");
  n.set.nodes[1].container_probe = container("gpu002", "2.21.5");
  n.set.nodes[2].container_probe = container("gpu003", "2.21.5");
  CHECK(of_kind(n.findings(), NodeAnomaly::Kind::NcclDrift).empty());
  n.set.nodes[2].container_probe = container("gpu003", "2.18.3");
  auto f = of_kind(n.findings(), NodeAnomaly::Kind::NcclDrift);
  REQUIRE(f.size() == 1);
  CHECK(f[0] == "gpu003: NCCL 2.18.3 where 2 other hosts of its class (gpu[001-002]) have 2.21.5");
}
