#include "graph/link_ceilings.h"

#include <algorithm>

#include "discover/device_ids.h"

namespace slurmtopo {

EndCeiling end_ceiling(const FabricNode& node, const LinkEnd& end) {
  EndCeiling out;
  const DeviceModel* model = find_device_model(node);
  out.vendor_id = node.vendor_id;
  out.device_id = node.device_id;
  out.speed = model ? model->best_speed : LinkSpeed::Unknown;
  out.width = model ? model->best_width : 0;
  if (end.speed_supported != LinkSpeed::Unknown && (!model || end.speed_supported < out.speed))
    out.speed = end.speed_supported, out.port_info = true;
  if (end.width_supported && (!model || end.width_supported < out.width))
    out.width = end.width_supported, out.port_info = true;
  return out;
}

std::string EndCeiling::label() const { return device_label(vendor_id, device_id); }

Judged judge(int value, int a, int b, int site) {
  if (!value) return {RateVerdict::AtBest, 0, false};
  const bool both = a && b;
  int bound = both ? std::min(a, b) : std::max(a, b);  // one end known: an upper bound only
  if (bound && value > bound) bound = 0;               // the evidence is contradicted: no bound
  if (site) {
    const int target = bound ? std::min(site, bound) : site;
    return {value < target ? RateVerdict::Below : RateVerdict::AtBest, target, both && bound && target == bound};
  }
  if (!bound) return {RateVerdict::Unknown, 0, false};
  if (both) return {value < bound ? RateVerdict::Below : RateVerdict::AtBest, bound, true};
  return value == bound ? Judged{RateVerdict::AtBest, bound, false} : Judged{RateVerdict::Unknown, 0, false};
}

std::string rate_text(int width, LinkSpeed speed) {
  std::string out = width ? std::to_string(width) + "x" : "";
  if (speed != LinkSpeed::Unknown) out += to_string(speed);
  return out;
}

}  // namespace slurmtopo
