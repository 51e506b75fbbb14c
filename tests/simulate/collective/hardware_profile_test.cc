#include "simulate/collective/hardware_profile.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/input_error.h"

using namespace slurmtopo;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The error a profile text raises, as "line: message".
std::string error_of(const std::string& yaml) {
  try {
    parse_profile(yaml, "p.yaml");
  } catch (const InputError& e) {
    return std::to_string(e.line()) + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("hardware profile: the compiled-in profiles are profiles/*.yaml byte for byte") {
  const std::filesystem::path dir = std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "profiles";
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path().stem().string());
  std::sort(files.begin(), files.end());
  CHECK(builtin_profile_names() == files);
  for (const std::string& name : files) {
    INFO(name, ": run profiles/embed.sh after editing a profile");
    CHECK(builtin_profile_text(name) == read(dir / (name + ".yaml")));
  }
}

TEST_CASE("hardware profile: every shipped profile loads and says what it is") {
  for (const std::string& name : builtin_profile_names()) {
    CAPTURE(name);
    const HardwareProfile h = load_profile(name);
    CHECK(h.name == name);
    CHECK(h.source == "builtin:" + name);
    // A GPU per NIC: 8 of each on an HGX node, 4 on an NVL72 compute tray.
    CHECK(h.gpus_per_node == (h.nvlink_domain_nodes > 1 ? 4 : 8));
    CHECK(h.nics_per_node == h.gpus_per_node);
    CHECK(h.protocols[static_cast<int>(Protocol::Simple)]);
    CHECK(h.nvlink_gbs() <= h.nvlink_line_gbs());
    CHECK(h.nic_gbs <= h.nic_line_gbs());
  }
}

TEST_CASE("hardware profile: DGX H100 carries NCCL's constants and its physical limits") {
  const HardwareProfile h = load_profile("h100-ndr");
  CHECK(h.sm == 90);
  CHECK(h.compute_generation() == 2);
  CHECK(h.nvlink_gbs() == doctest::Approx(18 * 20.6));
  CHECK(h.nvlink_line_gbs() == doctest::Approx(450));
  CHECK(h.nvswitch);
  CHECK(h.nvls);
  CHECK(h.nvls_efficiency == doctest::Approx(0.85));
  CHECK(h.pcie_gbs() == doctest::Approx(48));       // NCCL: Gen5 x16
  CHECK(h.pcie_line_gbs() == doctest::Approx(63).epsilon(0.01));
  CHECK(h.nic_speed == LinkSpeed::NDR);
  CHECK(h.nic_line_gbs() == doctest::Approx(50));
  CHECK(h.net_overhead_us() == doctest::Approx(1.0));  // Intel
  CHECK(h.nccl.base_ring[2] == doctest::Approx(8.4));
  CHECK(h.nccl.nvlink.ring[2] == doctest::Approx(3.4));
  CHECK(h.nccl.net.nvlstree == doctest::Approx(20.9));
  CHECK(h.nccl.ll_max_bw[0] == doctest::Approx(141));
  CHECK(h.nccl.tree_per_channel[1] == doctest::Approx(41.4));
}

TEST_CASE("hardware profile: a profile can start from a shipped one") {
  const HardwareProfile h200 = load_profile("h200-ndr");
  const HardwareProfile h100 = load_profile("h100-ndr");
  CHECK(h200.gpu_model == "H200");
  CHECK(h200.nvlink_gbs() == h100.nvlink_gbs());
  CHECK(h200.calibration.launch_us == h100.calibration.launch_us);

  const HardwareProfile b = load_profile("b200-ndr");
  CHECK(b.nic_speed == LinkSpeed::NDR);
  CHECK(b.nic_gbs == doctest::Approx(48));
  CHECK(b.pcie_gen == 5);
  CHECK(b.pcie_width == 16);  // kept from b200-xdr
  CHECK(b.sm == 100);

  const HardwareProfile one = parse_profile("base: a100-hdr\nname: mine\nnic: {per_node: 1}\n", "mine.yaml");
  CHECK(one.name == "mine");
  CHECK(one.source == "mine.yaml");
  CHECK(one.nics_per_node == 1);
  CHECK(one.nic_speed == LinkSpeed::HDR);
}

TEST_CASE("hardware profile: GB200 and GB300 NVL72 are 4-GPU trays in 18-tray NVLink domains") {
  const HardwareProfile gb200 = load_profile("gb200-nvl72");
  CHECK(gb200.gpu_model == "GB200");
  CHECK(gb200.gpus_per_node == 4);
  CHECK(gb200.nvlink_domain_nodes == 18);  // 72 GPUs a rack
  CHECK(gb200.nvlink_domain_nics == 16);   // NCCL 2.27.3's NICs between domains
  CHECK(gb200.nvlink_domain_nvls_gbs == doctest::Approx(430));
  CHECK(gb200.node_spans == 1);            // set only on a fused domain's profile
  CHECK(gb200.nvlink_gbs() == doctest::Approx(18 * 40.1));
  CHECK(gb200.nvlink_line_gbs() == doctest::Approx(900));
  CHECK(gb200.nic_speed == LinkSpeed::NDR);
  CHECK(gb200.cpu_vendor == "arm");
  CHECK(gb200.net_overhead_us() == doctest::Approx(1.0));  // NCCL's default off x86
  const HardwareProfile gb300 = load_profile("gb300-nvl72");
  CHECK(gb300.gpu_model == "GB300");
  CHECK(gb300.nvlink_domain_nodes == 18);
  CHECK(gb300.nic_speed == LinkSpeed::XDR);
  CHECK(gb300.nic_gbs == doctest::Approx(96));
  CHECK(gb300.pcie_gen == 6);
  CHECK(gb300.channels == gb200.channels);  // kept from gb200-nvl72
  // Other profiles' nodes are their own domains.
  CHECK(load_profile("b200-xdr").nvlink_domain_nodes == 1);
}

TEST_CASE("hardware profile: bad input names the file, the line and what was expected") {
  CHECK(error_of("base: h100-ndr\ngpu:\n  nvlinks: 18\n") ==
        "3: p.yaml:3: unknown key `gpu.nvlinks`; expected one of model, sm, per_node, nvlink, nvswitch, nvls, "
        "nvls_efficiency");
  CHECK(error_of("base: h100-ndr\nnic: {gbs: fast}\n") == "2: p.yaml:2: expected `nic.gbs` to be a number from 0.001 to 10000");
  CHECK(error_of("base: h100-ndr\ngpu: {sm: 85}\n") ==
        "2: p.yaml:2: expected `gpu.sm` to be one of 70, 80, 90, 100, not `85`");
  CHECK(error_of("base: h100-ndr\nprotocols: [LL, Simple, LL256]\n") ==
        "2: p.yaml:2: expected `protocols` to be one of LL, LL128, Simple, not `LL256`");
  CHECK(error_of("base: h100-ndr\nnccl:\n  ll_max_bw: [1, 2]\n") ==
        "3: p.yaml:3: expected `nccl.ll_max_bw` to be a list of three numbers");
  CHECK(error_of("base: h999\n") ==
        "1: p.yaml:1: expected `base` to name a shipped profile (a100-hdr, b200-ndr, b200-xdr, gb200-nvl72, "
        "gb300-nvl72, h100-ndr, h200-ndr), not `h999`");
  CHECK(error_of("base: h100-ndr\ngpu: {nvswitch: false, nvls: false, nvlink: {domain_nodes: 18}}\n") ==
        "2: p.yaml:2: expected `gpu.nvswitch: true` with `gpu.nvlink.domain_nodes` above 1: a multi-node NVLink "
        "domain is joined by NVLink switches");
  CHECK(error_of("base: gb200-nvl72\ngpu:\n  nvlink: {domain_nodes: 0}\n") ==
        "3: p.yaml:3: expected `gpu.nvlink.domain_nodes` to be a number from 1 to 576");
  CHECK(error_of("base: h100-ndr\ncpu: power\n") == "2: p.yaml:2: expected `cpu` to be one of intel, amd, arm, not `power`");
  CHECK(error_of("base: h100-ndr\ngpu: {nvswitch: false}\n") ==
        "2: p.yaml:2: expected `gpu.nvls: false` without `gpu.nvswitch`: NVLS is NVSwitch's");
  CHECK(error_of("base: a100-hdr\ngpu: {nvls: true}\n") ==
        "2: p.yaml:2: expected `gpu.nvls_efficiency` > 0 when `gpu.nvls` is true");
  CHECK(error_of("base: h100-ndr\nnic: {speed: HDR}\n") ==
        "2: p.yaml:2: expected `nic.gbs` at most the HDR line rate of 25 GB/s");
  CHECK(error_of("base: h100-ndr\nnic: {gbs: 60}\n") ==
        "2: p.yaml:2: expected `nic.gbs` at most the NDR line rate of 50 GB/s");
  CHECK(error_of("base: h100-ndr\nchannels: 16\nchannels: 8\n").find("only once") != std::string::npos);
  CHECK(error_of("name: x\n").find("0: p.yaml: missing key `gpu.model`") == 0);
  CHECK(error_of("[1, 2]").find("expected a hardware profile") != std::string::npos);
  CHECK(error_of("gpu: {model: [}").find("expected YAML") != std::string::npos);
}

TEST_CASE("hardware profile: names and files") {
  CHECK_THROWS_WITH_AS(load_profile("h100"), doctest::Contains("expected a shipped profile"), InputError);
  CHECK_THROWS_WITH_AS(load_profile("/nonexistent/p.yaml"), doctest::Contains("cannot read the hardware profile"),
                       InputError);
  const std::filesystem::path tmp = std::filesystem::temp_directory_path() / "slurmtopo-profile-test.yaml";
  std::ofstream(tmp) << builtin_profile_text("a100-hdr");
  const HardwareProfile h = load_profile(tmp.string());
  CHECK(h.name == "a100-hdr");
  CHECK(h.source == tmp.string());
  std::filesystem::remove(tmp);
}

TEST_CASE("hardware profile: NIC and PCIe figures") {
  CHECK(nic_effective_gbs(LinkSpeed::HDR) == 24);
  CHECK(nic_effective_gbs(LinkSpeed::NDR) == 48);
  CHECK(nic_effective_gbs(LinkSpeed::XDR) == 96);
  HardwareProfile h;
  h.pcie_gen = 4;
  h.pcie_width = 16;
  CHECK(h.pcie_gbs() == doctest::Approx(24));
  CHECK(h.pcie_line_gbs() == doctest::Approx(31.5).epsilon(0.01));
  h.pcie_width = 8;
  CHECK(h.pcie_gbs() == doctest::Approx(12));
}

TEST_CASE("hardware profile: derived from what hwloc saw in a node") {
  NodeInventory node;
  node.hostname = "gpu001";
  node.source = "gpu001.xml";
  for (int g = 0; g < 4; ++g) {
    Gpu gpu;
    gpu.index = g;
    gpu.slurm_type = "h100";
    gpu.nvlinks = {6, 6, 6, 6};  // direct links, no NVSwitch (HGX-4 style)
    gpu.nvlinks[g] = -1;
    node.gpus.push_back(gpu);
  }
  for (int n = 0; n < 2; ++n) {
    RdmaNic nic;
    nic.name = "mlx5_" + std::to_string(n);
    nic.link_layer = "InfiniBand";
    node.nics.push_back(nic);
  }
  node.gpu_nic = {{PathClass::PIX, PathClass::SYS}, {PathClass::PIX, PathClass::SYS},
                  {PathClass::SYS, PathClass::PIX}, {PathClass::SYS, PathClass::PIX}};
  const HardwareProfile h = profile_for_node(node, LinkSpeed::HDR);
  CHECK(h.gpu_model == "H100");
  CHECK(h.gpus_per_node == 4);
  CHECK(h.nvlink_links == 18);
  CHECK_FALSE(h.nvswitch);
  CHECK_FALSE(h.nvls);
  CHECK(h.nics_per_node == 2);
  CHECK(h.nic_speed == LinkSpeed::HDR);
  CHECK(h.nic_gbs == 24);

  // The same GPUs on NVSwitch, one of them with two of its 18 links down: the node's ring
  // counts on the 16 that GPU has.
  for (Gpu& g : node.gpus) g.nvlinks.clear(), g.nvswitch_links = 18;
  node.gpus[2].nvswitch_links = 16;
  const HardwareProfile switched = profile_for_node(node, LinkSpeed::HDR);
  CHECK(switched.nvswitch);
  CHECK(switched.nvlink_links == 16);
  // An export that does not count them keeps the profile's.
  for (Gpu& g : node.gpus) g.nvswitch_links = 0;
  CHECK(profile_for_node(node, LinkSpeed::HDR).nvlink_links == load_profile("h100-ndr").nvlink_links);

  node.gpus[0].slurm_type = "t4";
  CHECK_THROWS_WITH_AS(profile_for_node(node), doctest::Contains("no shipped hardware profile for GPU type `t4`"),
                       InputError);
}
