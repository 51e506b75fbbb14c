#include "discover/synthetic_names.h"

#include "discover/synthetic_fabric.h"

namespace slurmtopo {
namespace {

// "<host> mlx5_<n>" → "<host>"; "" for any other description (one the factory left).
std::string host_of(const std::string& description) {
  const size_t space = description.find(' ');
  if (space == std::string::npos || space == 0) return "";
  if (description.compare(space + 1, 5, "mlx5_") != 0) return "";
  return description.substr(0, space);
}

}  // namespace

std::string synthetic_node_name_map(const Fabric& fabric) {
  std::string out = "# node-name-map of the generated fabric \"" + fabric.name +
                    "\": host HCAs by node GUID (ibnetdiscover --node-name-map format)\n";
  for (const auto& n : fabric.nodes) {  // sorted by GUID
    if (!is_synthetic_host_hca(n)) continue;
    const std::string host = host_of(n.description);
    if (!host.empty()) out += "0x" + guid_hex(n.guid) + " \"" + host + "\"\n";
  }
  return out;
}

void give_factory_descriptions(Fabric& fabric) {
  for (auto& n : fabric.nodes)
    if (is_synthetic_host_hca(n)) n.description = synthetic_factory_description(n.device_id);
}

}  // namespace slurmtopo
