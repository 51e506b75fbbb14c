#include "discover/switch_models.h"

#include <cctype>
#include <cstdio>

#include "discover/device_ids.h"

namespace slurmtopo {
namespace {

// The ASIC's name from the one device-id table (discover/device_ids.h), for switch ids only.
const char* asic_name(uint32_t vendor_id, uint32_t device_id) {
  const DeviceModel* m = find_device_model(vendor_id, device_id);
  return m && m->kind == NodeKind::Switch ? m->name : nullptr;
}

}  // namespace

std::string switch_part_number(std::string_view description) {
  if (description.substr(0, 4) != "MF0;") return "";
  const size_t colon = description.rfind(':');
  if (colon == std::string_view::npos) return "";
  std::string_view part = description.substr(colon + 1);
  part = part.substr(0, part.find('/'));
  // A part number is one word; anything else is a hostname with a colon in it.
  for (char c : part)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return "";
  return std::string(part);
}

std::string switch_model(uint32_t vendor_id, uint32_t device_id, std::string_view description) {
  const std::string part = switch_part_number(description);
  if (const char* asic = asic_name(vendor_id, device_id)) return part.empty() ? asic : std::string(asic) + " " + part;
  if (vendor_id == 0 && device_id == 0) return part.empty() ? "device id not in the input" : part;
  char ids[48];
  if (!part.empty()) {
    std::snprintf(ids, sizeof ids, " (device 0x%04x)", device_id);
    return part + ids;
  }
  std::snprintf(ids, sizeof ids, "vendor 0x%06x device 0x%04x", vendor_id, device_id);
  return ids;
}

}  // namespace slurmtopo
