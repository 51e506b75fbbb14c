// What a node's NodeInfo VendorID and DeviceID say about its hardware: the product, and the
// fastest its ports can train. The one table of device ids (switch_models.cc names switch ASICs
// from it): a cable's ceiling is the slower of its two ends' best, so a DDR ConnectX on a QDR
// switch runs at what it can, not "degraded" (graph/link_ceilings.h).
#pragma once

#include <cstdint>
#include <string>

#include "discover/fabric.h"

namespace slurmtopo {

struct DeviceModel {
  uint32_t device_id;
  const char* name;      // "ConnectX-4", "Quantum-2", "ConnectX MT26418"
  NodeKind kind;         // Switch or Ca
  LinkSpeed best_speed;  // the fastest per-lane speed the ASIC trains
  int best_width;        // lanes of its widest port as built (4 for every listed part)
};

// The model for a node's ids, or nullptr when the table does not know them (another vendor,
// a device id no public source ties to a speed, ids 0 when the input did not carry them).
// Vendor 0x02c9 is the IB vendor id (OUI) Mellanox/NVIDIA nodes report; 0x15b3 (their PCI
// vendor id) is accepted too, for inputs that copy ids from lspci.
const DeviceModel* find_device_model(uint32_t vendor_id, uint32_t device_id);

// The model for a node of this kind: nullptr also when the table's kind differs (a device id
// reported by a node of the other kind is no evidence of what it can do).
const DeviceModel* find_device_model(const FabricNode& node);

// How a finding names a node's hardware: "ConnectX-4 0x1013", or the ids when the table does
// not know them ("vendor 0x0008f1 device 0x5a5a"; "no device id" for ids 0).
std::string device_label(uint32_t vendor_id, uint32_t device_id);

}  // namespace slurmtopo
