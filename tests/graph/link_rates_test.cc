// Cables judged against what both their ends can do (graph/link_rates.h), on generated fabrics
// whose HCA generations, device ids and cable rates each case sets.
#include "graph/link_rates.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "discover/hca_generations.h"
#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"

using namespace slurmtopo;

namespace {

// 16 hosts on four leaves of an NDR fat tree: ConnectX-7 HCAs (0x1021), Quantum-2 switches (0xd2f2).
Fabric ndr_tree() {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.hosts = 16;
  return generate_fattree(spec);
}

std::string switch_name(const FabricNode& n) {
  return n.description.substr(4, n.description.find(':') - 4);  // "MF0;leaf01:MQM9700/U1"
}

// The cable of a host's (only) HCA, and the leaf at its other end.
Link& host_cable(Fabric& f, const std::string& host) {
  for (auto& l : f.links)
    for (const LinkEnd* e : {&l.a, &l.b})
      if (f.find(e->guid)->description == host + " mlx5_0") return l;
  FAIL("no cable of " << host);
  throw;
}
std::string leaf_of(Fabric& f, const std::string& host) {
  const Link& l = host_cable(f, host);
  const FabricNode* a = f.find(l.a.guid);
  return switch_name(a->kind == NodeKind::Switch ? *a : *f.find(l.b.guid));
}

std::vector<const Anomaly*> found(const Cluster& c, Anomaly::Kind kind) {
  std::vector<const Anomaly*> out;
  for (const auto& a : c.anomalies)
    if (a.kind == kind) out.push_back(&a);
  return out;
}

const LinkRateCount* rate_row(const Cluster& c, const std::string& why_part) {
  for (const auto& r : c.link_rates)
    if (r.why.find(why_part) != std::string::npos) return &r;
  return nullptr;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("link rates: older HCAs at their own best are mixed generations, an injected degraded cable fails") {
  Fabric f = ndr_tree();
  apply_hca_generations(f, {parse_hca_generation("gpu[001-004]:HDR")});
  apply_faults(f, parse_faults({}, {"gpu010," + leaf_of(f, "gpu010") + ",1x"}));
  const Cluster c = build_cluster({f}, ClusterOptions{});
  const auto degraded = found(c, Anomaly::Kind::DegradedLink);
  REQUIRE(degraded.size() == 1);  // the four HDR hosts are no fault
  CHECK(has(degraded[0]->subject, "gpu010"));
  CHECK(has(degraded[0]->detail, "1xNDR; both ends support 4xNDR ("));
  CHECK(has(degraded[0]->detail, "ConnectX-7 0x1021"));
  CHECK(has(degraded[0]->detail, "Quantum-2 0xd2f2"));
  CHECK(found(c, Anomaly::Kind::SlowLinkGroup).empty());
  // The inventory says why four cables run HDR.
  const LinkRateCount* mixed = rate_row(c, "ConnectX-6 0x101b supports HDR at most");
  REQUIRE(mixed != nullptr);
  CHECK(mixed->cables == 4);
  CHECK(mixed->width == 4);
  CHECK(mixed->speed == LinkSpeed::HDR);
  CHECK(has(mixed->why, "mixed generations"));
  const LinkRateCount* best = rate_row(c, "the best both ends support");
  REQUIRE(best != nullptr);
  CHECK(best->speed == LinkSpeed::NDR);
  CHECK(c.unknown_devices.empty());
}

TEST_CASE("link rates: every cable of one kind of host slower than both ends is one slow-link-group") {
  Fabric f = ndr_tree();
  apply_hca_generations(f, {parse_hca_generation("gpu[001-004]:HDR")});
  std::vector<std::string> to_edr;
  for (const char* h : {"gpu001", "gpu002", "gpu003", "gpu004"}) to_edr.push_back(std::string(h) + "," + leaf_of(f, h) + ",EDR");
  SUBCASE("four: one group") {
    apply_faults(f, parse_faults({}, to_edr));
    const Cluster c = build_cluster({f}, ClusterOptions{});
    const auto groups = found(c, Anomaly::Kind::SlowLinkGroup);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0]->count == 4);
    CHECK(groups[0]->subject == "ConnectX-6 0x101b hosts - Quantum-2 0xd2f2 leaves");
    CHECK(groups[0]->detail ==
          "4 cables of ConnectX-6 0x101b hosts run 4xEDR; both ends support 4xHDR: cables or a setting chosen that "
          "way, or a batch fault");
    CHECK(found(c, Anomaly::Kind::DegradedLink).empty());
    CHECK(finding_kind(Anomaly::Kind::SlowLinkGroup).severity == Severity::Warn);
  }
  SUBCASE("three of the four: each a degraded cable, the fourth runs HDR") {
    to_edr.pop_back();
    apply_faults(f, parse_faults({}, to_edr));
    const Cluster c = build_cluster({f}, ClusterOptions{});
    CHECK(found(c, Anomaly::Kind::SlowLinkGroup).empty());
    CHECK(found(c, Anomaly::Kind::DegradedLink).size() == 3);
  }
  SUBCASE("every host cable of the fabric at HDR: one group of 16, no failure") {
    Fabric all = ndr_tree();
    for (auto& l : all.links)
      if (all.find(l.a.guid)->kind == NodeKind::Ca || all.find(l.b.guid)->kind == NodeKind::Ca) l.speed = LinkSpeed::HDR;
    const Cluster c = build_cluster({all}, ClusterOptions{});
    const auto groups = found(c, Anomaly::Kind::SlowLinkGroup);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0]->count == 16);
    CHECK(found(c, Anomaly::Kind::DegradedLink).empty());
  }
}

TEST_CASE("link rates: an unknown device id is not assumed fastest, a lone cable below its peers fails") {
  Fabric f = ndr_tree();
  // Four hosts with an HCA no table knows, at HDR on NDR switches: the old rule called them
  // degraded against the fabric's usual NDR; nothing says the HCA can do more.
  for (auto& n : f.nodes)
    if (is_synthetic_host_hca(n) && n.description < "gpu005") n.vendor_id = 0x1234, n.device_id = 0x9999;
  for (const char* h : {"gpu001", "gpu002", "gpu003", "gpu004"}) host_cable(f, h).speed = LinkSpeed::HDR;
  {
    const Cluster c = build_cluster({f}, ClusterOptions{});
    CHECK(found(c, Anomaly::Kind::DegradedLink).empty());
    CHECK(found(c, Anomaly::Kind::SlowLinkGroup).empty());
    REQUIRE(c.unknown_devices.size() == 1);  // once, not per cable
    CHECK(c.unknown_devices[0].vendor_id == 0x1234);
    CHECK(c.unknown_devices[0].device_id == 0x9999);
    CHECK(c.unknown_devices[0].nodes == 4);
  }
  host_cable(f, "gpu003").width = 1;  // one of the four lost lanes
  const Cluster c = build_cluster({f}, ClusterOptions{});
  const auto degraded = found(c, Anomaly::Kind::DegradedLink);
  REQUIRE(degraded.size() == 1);
  CHECK(has(degraded[0]->subject, "gpu003"));
  CHECK(has(degraded[0]->detail,
            "1xHDR; 3 of the 3 other cables between vendor 0x001234 device 0x9999 and Quantum-2 0xd2f2 run 4x"));
  CHECK(has(degraded[0]->detail, "vendor 0x001234 device 0x9999"));
}

TEST_CASE("link rates: the site's expected link, capped by what both ends support") {
  Fabric f = ndr_tree();
  apply_hca_generations(f, {parse_hca_generation("gpu[001-004]:HDR")});
  ClusterOptions options;
  options.site.expected_width = 4;
  options.site.expected_speed = LinkSpeed::NDR;
  // The HDR hosts' HCAs cannot do NDR: not degraded because the site expects it.
  CHECK(found(build_cluster({f}, options), Anomaly::Kind::DegradedLink).empty());
  options.site.expected_speed = LinkSpeed::XDR;  // bought XDR, got NDR parts: the parts cap it
  CHECK(found(build_cluster({f}, options), Anomaly::Kind::DegradedLink).empty());
  options.site.expected_speed = LinkSpeed::NDR;
  host_cable(f, "gpu010").speed = LinkSpeed::HDR;
  const Cluster c = build_cluster({f}, options);
  const auto degraded = found(c, Anomaly::Kind::DegradedLink);
  REQUIRE(degraded.size() == 1);
  CHECK(has(degraded[0]->subject, "gpu010"));
  CHECK(has(degraded[0]->detail, "4xHDR; expected 4xNDR (the site expects 4xNDR"));
}

TEST_CASE("link rates: a model built without judging cables (emit topology's) has no rate finding and the same tree") {
  Fabric f = ndr_tree();
  apply_faults(f, parse_faults({}, {"gpu010," + leaf_of(f, "gpu010") + ",1x"}));
  const Cluster judged = build_cluster({f}, ClusterOptions{});
  ClusterOptions quick;
  quick.judge_cable_rates = false;
  const Cluster unjudged = build_cluster({f}, quick);
  REQUIRE(found(judged, Anomaly::Kind::DegradedLink).size() == 1);
  CHECK_FALSE(judged.link_rates.empty());
  CHECK(found(unjudged, Anomaly::Kind::DegradedLink).empty());
  CHECK(unjudged.link_rates.empty());
  // Everything else the model holds is the same: what Slurm is given does not depend on rates.
  CHECK(unjudged.anomalies.size() == judged.anomalies.size() - 1);
  REQUIRE(unjudged.switches.size() == judged.switches.size());
  for (size_t s = 0; s < judged.switches.size(); ++s) {
    CHECK(unjudged.switches[s].name == judged.switches[s].name);
    CHECK(unjudged.switches[s].role == judged.switches[s].role);
  }
  REQUIRE(unjudged.hosts.size() == judged.hosts.size());
  for (size_t h = 0; h < judged.hosts.size(); ++h) CHECK(unjudged.hosts[h].name == judged.hosts[h].name);
}
