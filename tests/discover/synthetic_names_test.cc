// `generate --factory-hcas --write-node-name-map`: the hosts leave the fabric's descriptions
// and live only in the map, keyed by node GUID (discover/synthetic_names.h).
#include "discover/synthetic_names.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "discover/name_map.h"
#include "discover/nvlink_domains.h"
#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

TEST_CASE("synthetic names: the map names every host HCA by node GUID, factory descriptions name none") {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.hosts = 8;
  spec.rails = 2;
  spec.sharp = true;
  Fabric f = generate_fattree(spec);
  const std::string map = synthetic_node_name_map(f);
  int hcas = 0;
  for (const auto& n : f.nodes) {
    if (!is_synthetic_host_hca(n)) continue;
    ++hcas;
    const std::string host = n.description.substr(0, n.description.find(' '));
    CHECK(map.find("0x" + guid_hex(n.guid) + " \"" + host + "\"\n") != std::string::npos);
  }
  CHECK(hcas == 16);
  CHECK(map.starts_with("# node-name-map of the generated fabric"));

  give_factory_descriptions(f);
  for (const auto& n : f.nodes) {
    CAPTURE(n.description);
    if (n.kind == NodeKind::Switch) CHECK(n.description.starts_with("MF0;"));
    else if (n.description != "Mellanox Technologies Aggregation Node")
      CHECK(n.description == synthetic_factory_description(n.device_id));
  }
  // Written from the factory fabric, the map has no host left to name.
  CHECK(synthetic_node_name_map(f).find("0x") == std::string::npos);
}

TEST_CASE("synthetic names: NVLink domains of NVL72-style racks, 18 consecutive hosts each") {
  RailOptimizedSpec spec;
  spec.scalable_units = 3;
  spec.hosts_per_su = 12;  // 36 hosts: two whole racks of 18
  spec.rails = 4;
  const Fabric f = generate_rail_optimized(spec);
  const std::string text = synthetic_nvlink_domains(f, 18);
  CHECK(text == synthetic_nvlink_domains(f, 18));  // same fabric, same file
  const NvlinkDomains d = parse_nvlink_domains(text, "gen.domains");
  REQUIRE(d.hosts.size() == 36);
  CHECK(d.hosts[0].host == "dgx001");
  CHECK(d.hosts[0].gpus.at(0).domain() == d.hosts[17].gpus.at(0).domain());
  CHECK(d.hosts[17].gpus.at(0).domain() != d.hosts[18].gpus.at(0).domain());
  CHECK(d.hosts[18].gpus.at(0).domain() == d.hosts[35].gpus.at(0).domain());
  CHECK(d.hosts[0].gpus.at(0).clique == "1");
  // Another subnet's racks are other domains.
  RailOptimizedSpec other = spec;
  other.subnet = 1;
  CHECK(parse_nvlink_domains(synthetic_nvlink_domains(generate_rail_optimized(other), 18), "o").hosts[0].gpus[0].domain() !=
        d.hosts[0].gpus[0].domain());
  CHECK_THROWS_WITH_AS(synthetic_nvlink_domains(f, 0), doctest::Contains("--nvlink-domain-nodes"), InputError);
}
