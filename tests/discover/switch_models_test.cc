#include "discover/switch_models.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

// The ids and descriptions below are the ones in ../shared/fabrics/public's dumps.
TEST_CASE("switch model: the ASIC from the device id, the part number from a managed switch's description") {
  CHECK(switch_model(0x2c9, 0xd2f2, "MF0;B10-P1-IBSPINE-09:MQM9701/U1") == "Quantum-2 MQM9701");
  CHECK(switch_model(0x2c9, 0xd2f0, "MF0;rmd70-0101-0919-12ib0:MQM8700/U1") == "Quantum MQM8700");
  CHECK(switch_model(0x2c9, 0xc738, "MF0;switch-de779e:SX6012/U1") == "SwitchX SX6012");
}

TEST_CASE("switch model: an unmanaged switch's factory description names no part") {
  CHECK(switch_model(0x2c9, 0xcb20, "SwitchIB Mellanox Technologies") == "Switch-IB");
  CHECK(switch_model(0x2c9, 0xbd36, "Infiniscale-IV Mellanox Technologies") == "InfiniScale IV");
  CHECK(switch_model(0x2c9, 0xa87c, "MT43132 Mellanox Technologies") == "InfiniScale");
}

TEST_CASE("switch model: ids no table maps are shown as ids, never guessed") {
  CHECK(switch_model(0x8f1, 0x5a5a, "Voltaire 4036 - 36 QDR ports switch") == "vendor 0x0008f1 device 0x5a5a");
  CHECK(switch_model(0x2c9, 0xabcd, "MF0;sw1:MQM1234/U1") == "MQM1234 (device 0xabcd)");
  CHECK(switch_model(0, 0, "Switch8") == "device id not in the input");
  CHECK(switch_model(0, 0, "MF0;sw1:MQM9700/U1") == "MQM9700");
}

TEST_CASE("switch part number: only the MF0 form, only one word") {
  CHECK(switch_part_number("MF0;leaf-07:MQM9700/U1") == "MQM9700");
  CHECK(switch_part_number("MF0;leaf-07:MQM9700") == "MQM9700");
  CHECK(switch_part_number("leaf-07:MQM9700/U1") == "");
  CHECK(switch_part_number("MF0;leaf-07") == "");
  CHECK(switch_part_number("MF0;a:b c/U1") == "");
}
