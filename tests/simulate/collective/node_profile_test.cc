#include "simulate/collective/node_profile.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "base/files.h"
#include "discover/synthetic_fabric.h"
#include "simulate/collective/prediction.h"
#include "tests/graph/node_fixtures.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

// 1 scalable unit x 4 hosts (dgx001-dgx004) x 4 rails at `speed`.
Cluster pod_at(LinkSpeed speed) {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  spec.speed = speed;
  return build_cluster({generate_rail_optimized(spec)}, {});
}

}  // namespace

TEST_CASE("node profile: the NIC speed is the fabric's cable, each GPU takes its own HCA") {
  for (LinkSpeed speed : {LinkSpeed::HDR, LinkSpeed::NDR}) {
    CAPTURE(to_string(speed));
    const Cluster c = pod_at(speed);
    const NodeSet set = node_set({dgx_like("dgx001", 0, 4), dgx_like("dgx002", 1, 4)});
    const NodeProfile p = profile_from_nodes(set, join_nodes(set, &c), c);
    CHECK(p.profile.nic_speed == speed);
    CHECK(p.profile.gpus_per_node == 4);
    CHECK(p.warnings.empty());
    CHECK(p.gpu_nics.hosts == std::vector<std::string>{"dgx001", "dgx002"});
    REQUIRE(p.gpu_nics.gpu_hca.size() == 2);
    const std::vector<int>& hcas = p.gpu_nics.gpu_hca[0];
    REQUIRE(hcas.size() == 4);
    for (int g = 0; g < 4; ++g) CHECK(c.hcas[hcas[g]].description == "dgx001 mlx5_" + std::to_string(g));
  }
}

TEST_CASE("node profile: hosts of different hardware are all simulated as the first class, and told so") {
  const Cluster c = pod_at(LinkSpeed::NDR);
  const NodeSet set = node_set({dgx_like("dgx001", 0, 4), dgx_like("dgx002", 1, 2)});
  const NodeProfile p = profile_from_nodes(set, join_nodes(set, &c), c);
  CHECK(p.profile.gpus_per_node == 4);
  REQUIRE(p.warnings.size() == 1);
  CHECK(p.warnings[0] == "the hosts differ in hardware (2 node classes); every host is simulated as dgx001");
}

// The real H200 node's nvidia-smi -q, moved to GPU 2's bus and cut to x8: the node probe a
// host with one badly seated GPU would write.
TEST_CASE("node profile: a GPU at x8 (node probe) halves its rail, and the prediction says why") {
  const std::string smi_path = SLURMTOPO_SOURCE_DIR "/../shared/nodes/measured/h200-vm/nvidia-smi-q.txt";
  if (!std::filesystem::exists(smi_path)) return slurmtopo::testing::skip(smi_path + " is absent");
  std::string smi = read_file(smi_path);
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = smi.find(from);
    REQUIRE(at != std::string::npos);
    smi.replace(at, from.size(), to);
  };
  replace("GPU 00000000:00:06.0", "GPU 00000000:30:00.0");
  replace("Current                                : 16x", "Current                                : 8x");
  const Cluster c = pod_at(LinkSpeed::NDR);
  NodeSet healthy = node_set({dgx_like("dgx001", 0, 4), dgx_like("dgx002", 1, 4)});
  NodeSet sick = healthy;
  sick.nodes[1].probe = parse_node_probe("slurmtopo-probe 1\nwhere host\nhost dgx002\nkernel 6.8.0\n[gdr]\n"
                                         "module nvidia_peermem\n[nvidia-smi]\n" + smi + "slurmtopo-probe-end\n",
                                         "dgx002.probe");
  const NodeProfile before = profile_from_nodes(healthy, join_nodes(healthy, &c), c);
  const NodeProfile after = profile_from_nodes(sick, join_nodes(sick, &c), c);
  REQUIRE(after.gpu_nics.gpu_limit.size() == 2);
  CHECK(after.gpu_nics.gpu_limit[1][2].share == doctest::Approx(0.5));
  CHECK(after.gpu_nics.gpu_limit[1][2].why == "GPU 2 (0000:30:00.0) at x8 Gen5");
  CHECK(after.gpu_nics.gpu_limit[1][1].share == 1);  // the other GPUs keep theirs
  CHECK(after.gpu_nics.gpu_limit[0][2].share == 1);  // and the other host

  const FabricModel fabric(c, RoutingKind::MinHop);
  SimulateOptions o;
  o.sizes = {8589934592.0};
  o.gpu_nics = &before.gpu_nics;
  const Prediction ok = predict(fabric, {"dgx001", "dgx002"}, before.profile, o);
  o.gpu_nics = &after.gpu_nics;
  const Prediction slow = predict(fabric, {"dgx001", "dgx002"}, after.profile, o);
  // Bandwidth-bound: every channel waits for the slowest rail, which now has half the PCIe
  // figure where it had the lesser of PCIe and the NIC.
  const HardwareProfile& h = before.profile;
  const double expected = 0.5 * h.pcie_gbs() / std::min(h.pcie_gbs(), h.nic_gbs);
  CHECK(slow.sizes[0].busbw_gbs / ok.sizes[0].busbw_gbs == doctest::Approx(expected).epsilon(0.05));
  REQUIRE(!slow.sizes[0].bottlenecks.empty());
  CHECK(slow.sizes[0].bottlenecks[0].resource.find("dgx002 ") == 0);
  CHECK(slow.sizes[0].bottlenecks[0].resource.find("PCIe GPU->NIC") != std::string::npos);
  CHECK(std::find(slow.warnings.begin(), slow.warnings.end(),
                  "dgx002: GPU 2 (0000:30:00.0) at x8 Gen5: its traffic to other nodes through " +
                      c.hcas[after.gpu_nics.gpu_hca[1][2]].rail +
                      " is predicted at 50 % of the PCIe figure (node probe)") != slow.warnings.end());
}
