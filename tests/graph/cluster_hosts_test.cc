// build_cluster on who the hosts are: name maps as descriptions, unresolved HCAs, rail planes
// joined, separate clusters apart, the same subnet twice refused (graph/cluster_hosts.cc).
#include "graph/cluster_hosts.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/input_error.h"
#include "discover/site_config.h"
#include "discover/synthetic_fabric.h"
#include "graph/slurm_tree.h"

using namespace slurmtopo;

namespace {

Cluster two_fabrics(int rails_a, int rails_b) {
  FatTreeSpec a, b;
  a.radix = b.radix = 8;
  a.hosts = b.hosts = 16;
  a.rails = rails_a;
  b.rails = rails_b;
  b.switch_prefix = "b-";
  b.subnet = 1;
  Fabric fa = generate_fattree(a), fb = generate_fattree(b);
  fa.name = "ib0";
  fb.name = "ib1";
  std::vector<Fabric> fabrics;
  fabrics.push_back(std::move(fa));
  fabrics.push_back(std::move(fb));
  return build_cluster(std::move(fabrics), ClusterOptions{});
}


}  // namespace

TEST_CASE("cluster: a host with most of its HCAs on one fabric belongs to it (compute, not storage)") {
  const Cluster c = two_fabrics(2, 1);
  REQUIRE_FALSE(c.hosts.empty());
  for (const Host& h : c.hosts) CHECK(c.fabrics[h.fabric].name == "ib0");
  CHECK(c.planes.empty());
}

TEST_CASE("cluster: the same hosts equally on two fabrics are rail planes, joined into one model") {
  const Cluster c = two_fabrics(1, 1);
  REQUIRE(c.planes == std::vector<std::vector<int>>{{0, 1}});
  REQUIRE(c.host_index("gpu001") >= 0);
  const Host& h = c.hosts[c.host_index("gpu001")];
  REQUIRE(h.hcas.size() == 2);  // one HCA per plane
  CHECK(c.hcas[h.hcas[0]].fabric == 0);
  CHECK(c.hcas[h.hcas[1]].fabric == 1);
  CHECK(c.rails.size() == 2);
  // Groups from the leaf sets across planes: leaf1 of ib0 with b-leaf1 of ib1.
  REQUIRE(c.groups.size() == 4);
  for (const auto& g : c.groups) {
    REQUIRE(g.leaves.size() == 2);
    CHECK(c.switches[g.leaves[0]].fabric != c.switches[g.leaves[1]].fabric);
    CHECK(g.hosts.size() == 4);
  }
  const SlurmTree t = build_slurm_tree(c);
  CHECK(t.roots().size() == 1);  // one root over the planes
}

TEST_CASE("cluster: separate clusters (disjoint hosts) on two fabrics stay separate roots") {
  FatTreeSpec a, b;
  a.radix = b.radix = 8;
  a.hosts = b.hosts = 16;
  b.host_prefix = "cpu";
  b.subnet = 1;
  std::vector<Fabric> fabrics{generate_fattree(a), generate_fattree(b)};
  fabrics[0].name = "ib0";
  fabrics[1].name = "ib1";
  const Cluster c = build_cluster(std::move(fabrics), ClusterOptions{});
  CHECK(c.planes.empty());
  CHECK(build_slurm_tree(c).roots().size() == 2);
}

TEST_CASE("cluster: the same subnet given twice is an error naming both") {
  FatTreeSpec a;
  a.radix = 8;
  Fabric f = generate_fattree(a);
  Fabric g = f;
  f.source = "a.topo";
  g.source = "b.topo";
  std::vector<Fabric> fabrics{f, g};
  try {
    build_cluster(std::move(fabrics), ClusterOptions{});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "b.topo");
    CHECK(std::string(e.what()).find("other than a.topo's") != std::string::npos);
  }
}

namespace {
Fabric small_tree() {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.hosts = 16;
  return generate_fattree(spec);
}

FabricNode& ca_of(Fabric& f, const std::string& description) {
  for (auto& n : f.nodes)
    if (n.description == description) return n;
  FAIL("no CA " << description);
  return f.nodes.front();
}
}  // namespace

TEST_CASE("cluster: a name map's value is a node description — its host joins topology") {
  Fabric f = small_tree();
  FabricNode& hca = ca_of(f, "gpu003 mlx5_0");
  hca.description = "MT4129 ConnectX7   Mellanox Technologies";
  ClusterOptions options;
  options.names.source = "names.map";
  options.names.by_guid[hca.guid] = "gpu003 HCA-1";
  options.names.by_guid[0xdeadbeef] = "gone01";  // a host that left the fabric
  std::vector<Fabric> fabrics{f};
  const Cluster c = build_cluster(std::move(fabrics), options);
  REQUIRE(c.host_index("gpu003") >= 0);
  CHECK(c.hosts[c.host_index("gpu003")].group >= 0);
  CHECK(c.name_map.entries == 2);
  CHECK(c.name_map.matched == 1);
  CHECK(c.name_map.unknown() == 1);
}

TEST_CASE("cluster: a name map of another fabric matches nothing") {
  ClusterOptions options;
  options.names.source = "other.map";
  options.names.by_guid[0x1111] = "x01";
  options.names.by_guid[0x2222] = "x02";
  std::vector<Fabric> fabrics{small_tree()};
  const Cluster c = build_cluster(std::move(fabrics), options);
  CHECK(c.name_map.entries == 2);
  CHECK(c.name_map.matched == 0);
}

TEST_CASE("cluster: unresolved HCAs are one anomaly per leaf, with their ports and reasons") {
  Fabric f = small_tree();  // radix 8: 4 hosts per leaf on ports 1-4
  ca_of(f, "gpu001 mlx5_0").description = "ubuntu mlx5_0";
  ca_of(f, "gpu002 mlx5_0").description = "MT4129 ConnectX7   Mellanox Technologies";
  ca_of(f, "gpu004 mlx5_0").description = "MT4129 ConnectX7   Mellanox Technologies";
  ca_of(f, "gpu005 mlx5_0").description = "localhost mlx5_0";
  std::vector<Fabric> fabrics{f};
  const Cluster c = build_cluster(std::move(fabrics), ClusterOptions{});
  std::vector<Anomaly> unresolved;
  for (const auto& a : c.anomalies)
    if (a.kind == Anomaly::Kind::UnresolvedHca) unresolved.push_back(a);
  REQUIRE(unresolved.size() == 2);  // two leaves
  CHECK(unresolved[0].subject == "leaf001");
  CHECK(unresolved[0].detail.find("3 unresolved HCAs on ports 1-2,4") == 0);
  CHECK(unresolved[0].detail.find("\"ubuntu mlx5_0\" [1]") != std::string::npos);
  CHECK(unresolved[0].detail.find("2 factory-default node description") != std::string::npos);
  CHECK(unresolved[1].subject == "leaf002");
  CHECK(unresolved[1].detail.find("1 unresolved HCA on port 1") == 0);
  CHECK(c.host_index("gpu001") < 0);
}

TEST_CASE("cluster: site.yaml's default_host_names leave the site's own image name unresolved too") {
  // A site whose images boot as "compute" (not a distribution's default) names that in
  // site.yaml; read from the file as `--config` reads it, those HCAs are unresolved, not a host.
  Fabric f = small_tree();
  ca_of(f, "gpu001 mlx5_0").description = "compute mlx5_0";
  const std::string yaml = (std::filesystem::temp_directory_path() / "cluster_hosts_test_site.yaml").string();
  std::ofstream(yaml) << "default_host_names: [compute]\n";
  ClusterOptions options;
  options.site = load_site_config(yaml);
  std::filesystem::remove(yaml);
  const Cluster with_site = build_cluster({f}, options);
  CHECK(with_site.host_index("compute") < 0);
  int unresolved = 0;
  for (const auto& a : with_site.anomalies)
    if (a.kind == Anomaly::Kind::UnresolvedHca) {
      ++unresolved;
      CHECK(a.detail.find("\"compute mlx5_0\"") != std::string::npos);
    }
  CHECK(unresolved == 1);
  // Without the site's word "compute" is a host name like any other.
  const Cluster without = build_cluster({f}, ClusterOptions{});
  CHECK(without.host_index("compute") >= 0);
}

TEST_CASE("cluster: rail planes swept one by one give the topology.conf of the whole fabric") {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 4;
  spec.rails = 4;
  spec.radix = 16;
  const Fabric whole = generate_rail_optimized(spec);
  std::vector<Fabric> planes = split_rail_planes(whole, spec, 4);
  REQUIRE(planes.size() == 4);
  for (const auto& p : planes) CHECK(p.name.find("-plane") != std::string::npos);
  const Cluster joined = build_cluster(planes, ClusterOptions{});
  CHECK(joined.planes == std::vector<std::vector<int>>{{0, 1, 2, 3}});
  CHECK(joined.rails.size() == 4);
  const Cluster one = build_cluster({whole}, ClusterOptions{});
  auto switch_lines = [](const Cluster& c) {
    std::string out;
    for (const auto& s : build_slurm_tree(c).switches) {
      out += s.name + ":";
      for (const auto& n : s.nodes) out += " " + n;
      out += " /";
      for (const auto& m : s.members) out += " " + m;
      out += "\n";
    }
    return out;
  };
  CHECK(switch_lines(joined) == switch_lines(one));
  CHECK(build_slurm_tree(joined).roots().size() == 1);
  // Two planes of two rails each: the same.
  planes = split_rail_planes(whole, spec, 2);
  CHECK(switch_lines(build_cluster(planes, ClusterOptions{})) == switch_lines(one));
  CHECK_THROWS(split_rail_planes(whole, spec, 3));
}

TEST_CASE("two HCAs claiming one host and rail are both unresolved, the same rail on two hosts is not a clash") {
  Fabric f = small_tree();
  // Every host has an HCA named mlx5_0: no clash. Then one HCA takes another's whole name.
  const Cluster quiet = build_cluster({f}, ClusterOptions{});
  for (const auto& h : quiet.hcas) CHECK(h.unresolved.empty());
  const std::string taken = ca_of(f, "gpu001 mlx5_0").description;
  ca_of(f, "gpu002 mlx5_0").description = taken;
  const Cluster c = build_cluster({f}, ClusterOptions{});
  int clashing = 0;
  for (const auto& h : c.hcas) {
    if (h.description != taken) {
      CHECK(h.unresolved.empty());
      continue;
    }
    ++clashing;
    CHECK(h.host.empty());
    CHECK(h.unresolved == "2 HCAs claim '" + taken + "'");
  }
  CHECK(clashing == 2);
  CHECK(c.host_index("gpu001") < 0);
  CHECK(c.host_index("gpu003") >= 0);
}
