#include "simulate/collective/node_profile.h"

#include <doctest/doctest.h>

#include "discover/synthetic_fabric.h"
#include "tests/graph/node_fixtures.h"

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
