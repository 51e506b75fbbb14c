// NVLink domains as NCCL's nodes: which hosts share one, the NICs a domain's channels leave
// through, and what that makes of a placement's prediction on generated NVL72 racks.
#include <doctest/doctest.h>

#include "base/input_error.h"
#include "discover/nvlink_domains.h"
#include "simulate/collective/collective.h"
#include "slurm/hostlist.h"
#include "tests/simulate/collective/nvl72_racks.h"

using namespace slurmtopo;

namespace {

constexpr double GiB = 1024.0 * 1024 * 1024;

// Eight racks of 18 compute trays, 4 NICs each on their rail leaves, and their domains.
const testing::Nvl72Racks& racks() { return testing::nvl72_racks(8); }

std::vector<std::string> hosts(const std::string& list) { return expand_hostlist(list); }

Prediction predict_on(const std::string& list, const HostDomains* domains, std::optional<Algorithm> algo = {},
                      const std::string& profile = "gb200-nvl72") {
  SimulateOptions o;
  o.routing = RoutingKind::Adaptive;
  o.sizes = {8 * GiB};
  o.algorithm = algo;
  o.nvlink_domains = domains;
  return predict(racks().cluster, hosts(list), load_profile(profile), o);
}

}  // namespace

TEST_CASE("nvlink domains: a host is in the domain all its GPUs report") {
  const NvlinkDomains d = parse_nvlink_domains(
      "a1: 5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11.2\n"
      "a2: 5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11.2\n"
      "b1: 5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11.3\n"
      "down: 00000000-0000-0000-0000-000000000000.0\n",
      "d.txt");
  const HostDomains h = host_domains(d);
  CHECK(h.source == "d.txt");
  REQUIRE(h.find("a1"));
  CHECK(*h.find("a1") == "5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11.2");
  CHECK(*h.find("a1") == *h.find("a2"));
  CHECK(*h.find("b1") != *h.find("a1"));  // another clique of the same ClusterUUID
  CHECK(h.find("down") == nullptr);       // a fabric not up: no domain
  CHECK(h.find("absent") == nullptr);

  NvlinkDomains split;
  split.source = "dir";
  split.hosts.push_back({"x", "dir/x.fabric.csv", 0, {}});
  split.hosts.back().gpus = parse_nvidia_smi_fabric(
      "5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11, 2\n5b0e1c2a-7f3d-4e21-9a6c-0d8f4b2e7a11, 3\n", "x.fabric.csv");
  CHECK(host_domains(split).find("x") == nullptr);  // its GPUs disagree
}

TEST_CASE("nvlink domains: a placement's domains become NCCL's nodes, with the first GPUs' NICs between them") {
  const auto& r = racks();
  const HardwareProfile tray = load_profile("gb200-nvl72");
  // Rank order reaches rack 2 first, then rack 1.
  const std::vector<std::string> list = hosts("dgx[019-036,001-018]");
  const Placement per_host = resolve_placement(r.cluster, list, tray);
  const DomainView v = fuse_nvlink_domains(list, per_host, tray, r.domains);
  REQUIRE(v.hosts.size() == 2);
  CHECK(v.hosts[0].front() == "dgx019");
  CHECK(v.hosts[1].front() == "dgx001");
  CHECK(v.profile.gpus_per_node == 72);
  CHECK(v.profile.node_spans == 18);
  CHECK(v.profile.nics_per_node == 16);  // NCCL's 16 of the domain's 72
  CHECK(v.warnings.empty());
  REQUIRE(v.placement.rails.size() == 2);
  // GPU-first: the first four trays' NICs, tray by tray, rail by rail.
  const Hca& fifth = r.cluster.hcas[v.placement.rails[0][5]];
  CHECK(fifth.host == "dgx020");
  CHECK(v.placement.rails[0][5] == per_host.rails[1][1]);  // list[1] = dgx020, its second rail
  CHECK(r.cluster.hcas[v.placement.rails[1][15]].host == "dgx004");
  // Each rail k leaves both domains on the same rail of the fabric.
  for (int k = 0; k < 16; ++k)
    CHECK(r.cluster.hcas[v.placement.rails[0][k]].rail == r.cluster.hcas[v.placement.rails[1][k]].rail);
  CHECK(v.placement.home_gpu[5] == 4 + per_host.home_gpu[1]);  // tray 1, its rail-1 GPU
  REQUIRE(v.placement.gpu_names.size() == 72);
  CHECK(v.placement.gpu_names[6] == "dgx020 GPU2");
}

TEST_CASE("nvlink domains: partial racks and hosts without a domain are said") {
  const auto& r = racks();
  const HardwareProfile tray = load_profile("gb200-nvl72");
  const std::vector<std::string> uneven = hosts("dgx[001-018,019-020]");
  const DomainView v = fuse_nvlink_domains(uneven, resolve_placement(r.cluster, uneven, tray), tray, r.domains);
  CHECK(v.hosts.size() == 2);
  CHECK(v.profile.gpus_per_node == 72);  // the largest domain's
  CHECK(v.profile.nics_per_node == 8);   // the smallest has two trays' NICs
  REQUIRE(v.warnings.size() == 1);
  CHECK(v.warnings[0] == "the placement has 2 to 18 nodes in each NVLink domain; predicted as 18 in each (NCCL's "
                         "rings and trees pass every GPU of the largest)");

  HostDomains partial = r.domains;
  partial.of.erase("dgx002");
  const std::vector<std::string> three = hosts("dgx[001-003]");
  const DomainView w = fuse_nvlink_domains(three, resolve_placement(r.cluster, three, tray), tray, partial);
  CHECK(w.hosts.size() == 2);  // dgx002 runs as its own domain
  CHECK(w.warnings.front() == "dgx002: in no NVLink domain of nvl72.domains; runs as a domain of its own, over "
                              "the network only");
}

TEST_CASE("nvlink domains: a job inside one rack beats the same job across racks") {
  const auto& r = racks();
  const Prediction one = predict_on("dgx[001-016]", &r.domains);
  CHECK(one.nodes == 16);
  CHECK(one.ranks == 64);
  CHECK(one.nvlink_domains == 1);
  CHECK(one.domain_gpus == 64);
  CHECK(one.sizes[0].algorithm == Algorithm::Nvls);  // one NCCL node: NVLS over the rack's NVLink
  CHECK(one.warnings.empty());

  // The same 16 trays, eight in each of two racks: NVLSTree, the tree between racks on 16 NICs.
  const Prediction two = predict_on("dgx[001-008,019-026]", &r.domains);
  CHECK(two.nvlink_domains == 2);
  CHECK(two.sizes[0].algorithm == Algorithm::NvlsTree);
  CHECK(two.sizes[0].busbw_gbs < one.sizes[0].busbw_gbs);

  // Spread over eight racks, two trays each: 8 NICs a domain between eight domains.
  const Prediction spread = predict_on("dgx[001-002,019-020,037-038,055-056,073-074,091-092,109-110,127-128]", &r.domains);
  CHECK(spread.nvlink_domains == 8);
  CHECK(spread.rails == 8);
  CHECK(spread.sizes[0].busbw_gbs < 0.6 * one.sizes[0].busbw_gbs);
  CHECK(spread.sizes[0].bottlenecks.front().resource.find("NIC") != std::string::npos);

  // Without the domains each tray is its own NCCL node, and the prediction says why.
  const Prediction blind = predict_on("dgx[001-016]", nullptr);
  CHECK(blind.nvlink_domains == 0);
  REQUIRE(blind.warnings.size() == 1);
  CHECK(blind.warnings[0] == "profile gb200-nvl72 joins 18 nodes in an NVLink domain, but no --nvlink-domains says "
                             "which hosts share one: each host is predicted as its own, as NCCL runs with MNNVL off");
  CHECK(blind.sizes[0].busbw_gbs < 0.5 * one.sizes[0].busbw_gbs);

  // A profile whose node is its domain ignores the domains.
  const Prediction hgx = predict_on("dgx[001-002]", &r.domains, {}, "b200-ndr");
  CHECK(hgx.nvlink_domains == 0);
  for (const std::string& w : hgx.warnings) CHECK(w.find("NVLink") == std::string::npos);
}

TEST_CASE("nvlink domains: bottlenecks name the tray and GPU, or the NVLS ceiling across trays") {
  const auto& r = racks();
  const Prediction ring = predict_on("dgx[001-018]", &r.domains, Algorithm::Ring);
  REQUIRE(!ring.sizes[0].bottlenecks.empty());
  CHECK(ring.sizes[0].bottlenecks.front().resource.find("dgx0") == 0);
  CHECK(ring.sizes[0].bottlenecks.front().resource.find(" GPU") != std::string::npos);
  const Prediction nvls = predict_on("dgx[001-018]", &r.domains);
  REQUIRE(!nvls.sizes[0].bottlenecks.empty());
  CHECK(nvls.sizes[0].bottlenecks.front().resource == "NVLS across the NVLink domain's 18 nodes (gb200-nvl72)");
  // One tray is one node: its NVLS is held by its ports, not by the ceiling across trays.
  const Prediction tray = predict_on("dgx001", &r.domains, Algorithm::Nvls);
  CHECK(tray.sizes[0].bottlenecks.front().resource.find("NVLink") != std::string::npos);
}

TEST_CASE("nvlink domains: a job next door in the same racks shares the NICs between them") {
  const auto& r = racks();
  SimulateOptions o;
  o.routing = RoutingKind::Adaptive;
  o.sizes = {8 * GiB};
  o.nvlink_domains = &r.domains;
  const HardwareProfile h = load_profile("gb200-nvl72");
  const Prediction alone = predict(r.cluster, hosts("dgx[001-002,019-020]"), h, o);
  o.busy_jobs.push_back({hosts("dgx[003-004,021-022]"), Collective::AllReduce, 8 * GiB, 1});
  const Prediction shared = predict(r.cluster, hosts("dgx[001-002,019-020]"), h, o);
  CHECK(shared.busy_jobs == 1);
  CHECK(shared.sizes[0].busbw_gbs <= alone.sizes[0].busbw_gbs * 1.0001);
  o.busy_jobs.back().hosts = hosts("dgx[001,003]");
  CHECK_THROWS_WITH_AS(predict(r.cluster, hosts("dgx[001-002,019-020]"), h, o),
                       doctest::Contains("dgx001 is in the placement"), InputError);
}
