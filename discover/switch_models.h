// Switch product names for the inventory. NodeInfo gives only PCI-style ids, and an admin
// counts switches by product ("Quantum-2 MQM9701"), not by "device 0xd2f2".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace slurmtopo {

// The switch's model: the ASIC named from the NodeInfo vendor and device id, then the part
// number that managed Mellanox/NVIDIA switches put in their node description
// ("MF0;<hostname>:<part>/<unit>", e.g. "MF0;leaf-07:MQM9700/U1"):
//   "Quantum-2 MQM9700"              ASIC known, part in the description
//   "Switch-IB"                      ASIC known, unmanaged (factory description)
//   "<part> (device 0x....)"         ASIC not in the table, part in the description
//   "<part>"                         ids 0 (not in the input), part in the description
//   "vendor 0x0008f1 device 0x5a5a"  neither (e.g. Voltaire, whose ids no public table maps)
//   "device id not in the input"     ids 0: ibnetdiscover text without its vendid/devid lines
std::string switch_model(uint32_t vendor_id, uint32_t device_id, std::string_view description);

// The part number of a managed switch's node description ("MQM9700"), "" when it has none.
std::string switch_part_number(std::string_view description);

}  // namespace slurmtopo
