#include "discover/device_ids.h"

#include <doctest/doctest.h>

#include "discover/hca_generations.h"
#include "discover/switch_models.h"
#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

namespace {
LinkSpeed best(uint32_t vendor, uint32_t device) {
  const DeviceModel* m = find_device_model(vendor, device);
  return m ? m->best_speed : LinkSpeed::Unknown;
}
}  // namespace

// The ids below are those ../shared/fabrics/public's dumps carry, with what each part can train.
TEST_CASE("device ids: the HCAs of the public dumps and the fastest each trains") {
  CHECK(best(0x2c9, 0x6732) == LinkSpeed::DDR);  // psmn X5's 23 MT26418 ConnectX: DDR at most
  CHECK(best(0x2c9, 0x673c) == LinkSpeed::QDR);  // ConnectX-2 MT26428
  CHECK(best(0x2c9, 0x6746) == LinkSpeed::QDR);  // ConnectX-2 MT26438
  CHECK(best(0x2c9, 0x6340) == LinkSpeed::SDR);  // MT25408 ConnectX, IB SDR
  CHECK(best(0x2c9, 0x5a44) == LinkSpeed::SDR);  // MT23108 InfiniHost
  CHECK(best(0x2c9, 0x1003) == LinkSpeed::FDR);  // ConnectX-3
  CHECK(best(0x2c9, 0x1013) == LinkSpeed::EDR);  // ConnectX-4
  CHECK(best(0x2c9, 0x101b) == LinkSpeed::HDR);  // ConnectX-6
  CHECK(best(0x2c9, 0x1021) == LinkSpeed::NDR);  // ConnectX-7
  CHECK(std::string(find_device_model(0x2c9, 0x1013)->name) == "ConnectX-4");
  CHECK(find_device_model(0x2c9, 0x1013)->kind == NodeKind::Ca);
  CHECK(find_device_model(0x2c9, 0x1013)->best_width == 4);
}

TEST_CASE("device ids: switch ASICs, one table with switch_model's names") {
  CHECK(best(0x2c9, 0xa87c) == LinkSpeed::SDR);  // InfiniScale
  CHECK(best(0x2c9, 0xbd36) == LinkSpeed::QDR);  // InfiniScale IV
  CHECK(best(0x2c9, 0xc738) == LinkSpeed::FDR);  // SwitchX (the SX6012 of 3.topo)
  CHECK(best(0x2c9, 0xcb20) == LinkSpeed::EDR);  // Switch-IB
  CHECK(best(0x2c9, 0xd2f0) == LinkSpeed::HDR);  // Quantum
  CHECK(best(0x2c9, 0xd2f2) == LinkSpeed::NDR);  // Quantum-2
  CHECK(best(0x2c9, 0xd2f4) == LinkSpeed::XDR);  // Quantum-3
  CHECK(find_device_model(0x2c9, 0xd2f2)->kind == NodeKind::Switch);
  // switch_model() names the ASIC from this table: the two cannot disagree.
  CHECK(switch_model(0x2c9, 0xcf08, "") == find_device_model(0x2c9, 0xcf08)->name);
  CHECK(switch_model(0x2c9, 0x1021, "") == "vendor 0x0002c9 device 0x1021");  // an HCA id is no switch
}

TEST_CASE("device ids: unknown stays unknown, never guessed") {
  CHECK(find_device_model(0x8f1, 0x5a5a) == nullptr);  // Voltaire 4036: no public table maps it
  CHECK(find_device_model(0x8f1, 0x5a05) == nullptr);
  CHECK(find_device_model(0x2c9, 0xcf09) == nullptr);  // the SHARP aggregation node
  CHECK(find_device_model(0, 0) == nullptr);           // ibnetdiscover text without ids
  CHECK(find_device_model(0x1234, 0x1021) == nullptr);  // another vendor's device 0x1021
  CHECK(find_device_model(0x15b3, 0x1021) == find_device_model(0x2c9, 0x1021));  // PCI vendor id
  CHECK(device_label(0x2c9, 0x1013) == "ConnectX-4 0x1013");
  CHECK(device_label(0x8f1, 0x5a5a) == "vendor 0x0008f1 device 0x5a5a");
  CHECK(device_label(0, 0) == "no device id");
}

TEST_CASE("device ids: a node's model only when its kind matches the table's") {
  FabricNode ca;
  ca.kind = NodeKind::Ca;
  ca.vendor_id = 0x2c9;
  ca.device_id = 0xd2f2;  // a switch ASIC's id on a CA: no evidence of what the CA can do
  CHECK(find_device_model(ca) == nullptr);
  ca.device_id = 0x1021;
  REQUIRE(find_device_model(ca) != nullptr);
  CHECK(find_device_model(ca)->best_speed == LinkSpeed::NDR);
}

TEST_CASE("device ids: every model the generators write is in the table at the speed it is built for") {
  for (const std::string& name : synthetic_speeds()) {
    FatTreeSpec spec;
    spec.radix = 8;
    spec.speed = parse_link_speed(name);
    const Fabric f = generate_fattree(spec);
    for (const FabricNode& n : f.nodes) {
      if (!is_synthetic_host_hca(n) && n.kind != NodeKind::Switch) continue;
      INFO(name << " " << n.description);
      REQUIRE(find_device_model(n) != nullptr);
      CHECK(find_device_model(n)->best_speed == spec.speed);
    }
  }
  for (LinkSpeed s : {LinkSpeed::QDR, LinkSpeed::FDR, LinkSpeed::EDR, LinkSpeed::HDR, LinkSpeed::NDR, LinkSpeed::XDR}) {
    INFO(to_string(s));
    CHECK(best(0x2c9, hca_device_for(s)) == s);
  }
}
