// The node probe's record, read back: from the real H200 node's captures in
// ../shared/nodes/measured/h200-vm (nvidia-smi -q, the sysfs PCI figures), and from the probe
// script itself, run here by dash as collect runs it on a node (no GPU, no HCA: it must say so).
#include "discover/node_probe.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"
#include "base/shell_quote.h"
#include "discover/node_probe_script.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

const std::string kH200 = SLURMTOPO_SOURCE_DIR "/../shared/nodes/measured/h200-vm/";

bool have(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  slurmtopo::testing::skip(path + " is absent");
  return false;
}

std::string run_probe(const std::string& shell, const std::string& where) {
  const std::string out = "/tmp/slurmtopo-probe-test-" + std::to_string(::getpid()) + ".txt";
  const std::string cmd = "SLURMD_NODENAME=node7 " + shell + " -c " + shell_quote(node_probe_script()) + " probe " +
                          where + " >" + out + " 2>/dev/null";
  const int rc = std::system(cmd.c_str());
  std::string text = read_file(out);
  std::remove(out.c_str());
  CHECK(rc == 0);
  return text;
}

}  // namespace

TEST_CASE("nvidia-smi -q of the real H200 node: driver, CUDA, the GPU's PCIe link and memory health") {
  if (!have(kH200 + "nvidia-smi-q.txt")) return;
  const NvidiaSmi smi = parse_nvidia_smi_q(read_file(kH200 + "nvidia-smi-q.txt"), "nvidia-smi-q.txt");
  CHECK(smi.driver == "580.159.04");
  CHECK(smi.cuda == "13.0");
  REQUIRE(smi.gpus.size() == 1);
  const GpuReport& g = smi.gpus[0];
  CHECK(g.bus_id == "0000:00:06.0");  // nvidia-smi's 8-digit domain, as sysfs and hwloc write it
  CHECK(g.name == "NVIDIA H200");
  CHECK(g.gen_max == 5);
  CHECK(g.gen_current == 5);
  CHECK(g.width_max == 16);
  CHECK(g.width_current == 16);
  CHECK(g.host_gen_max == -1);  // N/A in a VM
  CHECK_FALSE(g.remap_pending);
  CHECK_FALSE(g.remap_failed);
  CHECK_FALSE(g.retire_pending);  // "Pending Page Blacklist : N/A" on Hopper
  CHECK(g.dram_uncorrectable == 0);
}

TEST_CASE("the sysfs PCI figures of the real H200 node read as the probe's [pci] lines") {
  if (!have(kH200 + "sysfs-pci.txt")) return;
  const std::string text = read_file(kH200 + "sysfs-pci.txt");
  LineReader lines(text);
  std::string_view line;
  std::vector<PciFunction> all;
  while (lines.next(line))
    if (!line.empty()) all.push_back(parse_pci_function(line, "sysfs-pci.txt", lines.number()));
  REQUIRE(all.size() == 7);
  const PciFunction& gpu = all.back();
  CHECK(gpu.bdf == "0000:00:06.0");
  CHECK(gpu.class_code == 0x030200);
  CHECK(gpu.vendor == 0x10de);
  CHECK(gpu.device == 0x2335);
  CHECK(gpu.speed == doctest::Approx(32.0));
  CHECK(gpu.max_speed == doctest::Approx(32.0));
  CHECK(gpu.width == 16);
  CHECK(gpu.max_width == 16);
  CHECK(pcie_generation(gpu.speed) == 5);
  // The VM's virtio NIC has no PCIe link: no figures, not zeros read as a fault.
  CHECK(all[3].class_code == 0x020000);
  CHECK(all[3].speed == 0);
  CHECK(all[3].width == 0);
}

TEST_CASE("the probe runs under dash with no GPU and no HCA, and records what is missing instead of failing") {
  if (std::system("command -v dash >/dev/null 2>&1") != 0) return slurmtopo::testing::skip("dash is not installed");
  const std::string text = run_probe("dash", "host");
  const NodeProbe p = parse_node_probe(text, "node7.probe");
  CHECK(p.complete);
  CHECK(p.where == "host");
  CHECK(p.host == "node7");  // Slurm's node name, not the kernel's
  CHECK_FALSE(p.kernel.empty());
  auto missing = [&](const std::string& what) {
    return std::find(p.missing.begin(), p.missing.end(), what) != p.missing.end();
  };
  // Whatever this machine has is recorded, and whatever it lacks is named as missing.
  CHECK((std::filesystem::exists("/sys/class/infiniband") || missing("/sys/class/infiniband")));
  CHECK((std::filesystem::exists("/dev/infiniband") || missing("/dev/infiniband")));
  const bool smi = std::system("command -v nvidia-smi >/dev/null 2>&1") == 0;
  CHECK(smi == p.nvidia_smi.present);
  CHECK((smi || missing("nvidia-smi")));
  // Every PCI function the probe kept is a GPU, a NIC or an accelerator, read from sysfs.
  for (const PciFunction& f : p.pci) {
    CAPTURE(f.bdf);
    const uint32_t base = f.class_code >> 16;
    CHECK((base == 0x02 || base == 0x03 || base == 0x12));
    CHECK(std::filesystem::exists("/sys/bus/pci/devices/" + f.bdf));
  }
  // Inside a container the same script says where it ran.
  CHECK(parse_node_probe(run_probe("dash", "container"), "c").where == "container");
}

TEST_CASE("the probe is plain POSIX sh: shellcheck finds nothing") {
  if (std::system("command -v shellcheck >/dev/null 2>&1") != 0)
    return slurmtopo::testing::skip("shellcheck is not installed (apt-get install shellcheck)");
  const std::string path = "/tmp/slurmtopo-probe-" + std::to_string(::getpid()) + ".sh";
  std::ofstream(path) << node_probe_script();
  const int rc = std::system(("shellcheck -s sh " + path + " >&2").c_str());
  std::remove(path.c_str());
  CHECK(rc == 0);
}

TEST_CASE("a probe record: every section, and a record cut short") {
  const std::string text =
      "slurmtopo-probe 1\nwhere container\nhost gpu001\nkernel 5.15.0-105-generic\n"
      "[pci]\n0000:1b:00.0 class=0x030200 vendor=0x10de device=0x2330 numa=0 link=32.0 GT/s PCIe/8 max=32.0 GT/s PCIe/16 "
      "up=16.0 GT/s PCIe/16\n"
      "[ib]\nmlx5_0\tport=1\tstate=4: ACTIVE\tphys_state=5: LinkUp\trate=400 Gb/sec (4X NDR)\tlink_layer=InfiniBand\t"
      "pci=0000:1a:00.0\tfw=28.39.1002\n"
      "mlx5_1\tport=1\tstate=1: DOWN\tphys_state=2: Polling\trate=10 Gb/sec (4X SDR)\tlink_layer=InfiniBand\t"
      "pci=0000:3a:00.0\tfw=28.39.1002\n"
      "[gdr]\nnvidia NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build\n"
      "[verbs]\ndev uverbs0\ndev rdma_cm\nlib /usr/lib/x86_64-linux-gnu/libibverbs.so.1\nprovider mlx5.driver driver mlx5\n"
      "[cuda]\ntoolkit 12.4.1\nCUDA_VERSION 12.4.1\nnccl /usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5\n"
      "nccl /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
      "[env]\nNCCL_IB_HCA==mlx5_0,mlx5_1\n"
      "[nvidia-smi]\nDriver Version                            : 550.54.15\nCUDA Version                              : 12.4\n"
      "[missing]\nibv_devices\nslurmtopo-probe-end\n";
  const NodeProbe p = parse_node_probe(text, "gpu001.container.probe");
  CHECK(p.complete);
  CHECK(p.where == "container");
  REQUIRE(p.pci.size() == 1);
  CHECK(p.pci[0].width == 8);
  CHECK(p.pci[0].max_width == 16);
  CHECK(p.pci[0].up_max_speed == doctest::Approx(16.0));
  CHECK(p.pci[0].link_max_speed() == doctest::Approx(16.0));  // the slot's Gen4 bounds the card's Gen5
  REQUIRE(p.ports.size() == 2);
  CHECK(p.ports[0].state == "ACTIVE");
  CHECK(p.ports[0].rate_gbps == doctest::Approx(400));
  CHECK(p.ports[0].firmware == "28.39.1002");
  CHECK(p.ports[1].state == "DOWN");
  CHECK(p.ports[1].phys_state == "Polling");
  CHECK_FALSE(p.peermem);
  CHECK(p.open_module);
  CHECK(p.rdma_devices == std::vector<std::string>{"uverbs0", "rdma_cm"});
  CHECK(p.libibverbs);
  CHECK(p.providers.size() == 1);
  CHECK(p.cuda_in_use() == "12.4.1");
  CHECK(p.nccl_versions == std::vector<std::string>{"2.21.5"});
  REQUIRE(p.env("NCCL_IB_HCA"));
  CHECK(*p.env("NCCL_IB_HCA") == "=mlx5_0,mlx5_1");
  CHECK(p.nvidia_smi.driver == "550.54.15");
  CHECK(p.missing == std::vector<std::string>{"ibv_devices"});

  // Cut inside nvidia-smi's output: what came is kept, and the record says it is incomplete.
  const NodeProbe cut = parse_node_probe(text.substr(0, text.find("CUDA Version")), "gpu001.probe");
  CHECK_FALSE(cut.complete);
  CHECK(cut.nvidia_smi.driver == "550.54.15");
}

TEST_CASE("bad probe records: file:line and what was expected") {
  auto error = [](const std::string& text) {
    try {
      parse_node_probe(text, "n1.probe");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("<topology/>\n").find("n1.probe:1: a node probe record") == 0);
  CHECK(error("slurmtopo-probe 2\n").find("n1.probe:1: a record of probe format 1") == 0);
  CHECK(error("slurmtopo-probe 1\n[pci]\n0000:00:01.0 class=0x030000\n").find("n1.probe:3: expected 'BDF class=") == 0);
  CHECK(error("slurmtopo-probe 1\n[pci]\nnot-a-bdf class=1 link=/ max=/\n").find("n1.probe:3:") == 0);
  CHECK(error("slurmtopo-probe 1\n[ib]\nmlx5_0\tstate=4: ACTIVE\n").find("n1.probe:3: expected 'DEVICE<TAB>port=N") == 0);
  CHECK(error("slurmtopo-probe 1\n[ib]\nmlx5_0 port=1\n").find("n1.probe:3:") == 0);
  CHECK(error("slurmtopo-probe 1\n[sensors]\n").find("n1.probe:2: unknown section 'sensors'") == 0);
}
