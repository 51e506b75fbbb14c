// build_cluster on several fabrics: which fabric a host belongs to.
#include "graph/cluster.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

namespace {

Cluster two_fabrics(int rails_a, int rails_b) {
  FatTreeSpec a, b;
  a.radix = b.radix = 8;
  a.hosts = b.hosts = 16;
  a.rails = rails_a;
  b.rails = rails_b;
  b.switch_prefix = "b-";
  Fabric fa = generate_fattree(a), fb = generate_fattree(b);
  fa.name = "ib0";
  fb.name = "ib1";
  std::vector<Fabric> fabrics;
  fabrics.push_back(std::move(fa));
  fabrics.push_back(std::move(fb));
  return build_cluster(std::move(fabrics), ClusterOptions{});
}

int count(const Cluster& c, Anomaly::Kind kind) {
  return static_cast<int>(std::count_if(c.anomalies.begin(), c.anomalies.end(),
                                        [&](const Anomaly& a) { return a.kind == kind; }));
}

}  // namespace

TEST_CASE("cluster: a host with most of its HCAs on one fabric belongs to it (compute, not storage)") {
  const Cluster c = two_fabrics(2, 1);
  REQUIRE_FALSE(c.hosts.empty());
  for (const Host& h : c.hosts) CHECK(c.fabrics[h.fabric].name == "ib0");
  CHECK(count(c, Anomaly::Kind::SplitFabrics) == 0);
}

TEST_CASE("cluster: the same hosts equally on two fabrics (rail planes as subnets) are reported") {
  const Cluster c = two_fabrics(1, 1);
  REQUIRE(count(c, Anomaly::Kind::SplitFabrics) == 1);
  const auto it = std::find_if(c.anomalies.begin(), c.anomalies.end(),
                               [](const Anomaly& a) { return a.kind == Anomaly::Kind::SplitFabrics; });
  CHECK(it->subject == "gpu[001-016]");
  CHECK(it->detail.find("ib0, ib1") != std::string::npos);
  CHECK(it->detail.find("grouped by ib0 alone") != std::string::npos);
  CHECK(std::string(to_string(it->kind)) == "split-fabrics");
}
