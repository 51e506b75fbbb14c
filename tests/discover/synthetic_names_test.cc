// `generate --factory-hcas --write-node-name-map`: the hosts leave the fabric's descriptions
// and live only in the map, keyed by node GUID (discover/synthetic_names.h).
#include "discover/synthetic_names.h"

#include <doctest/doctest.h>

#include "discover/name_map.h"
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
