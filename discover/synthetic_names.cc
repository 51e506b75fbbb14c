#include "discover/synthetic_names.h"

#include <algorithm>
#include <cstdio>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "slurm/hostlist.h"

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

std::string synthetic_nvlink_domains(const Fabric& fabric, int per_domain) {
  if (per_domain < 1) throw InputError("--nvlink-domain-nodes", 0, "expected at least 1 node per NVLink domain");
  std::vector<std::string> hosts;
  uint64_t first_guid = 0;
  for (const auto& n : fabric.nodes) {
    if (!is_synthetic_host_hca(n)) continue;
    const std::string host = host_of(n.description);
    if (host.empty()) continue;
    if (hosts.empty()) first_guid = n.guid;
    hosts.push_back(host);
  }
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  std::string out = "# NVLink domains of the generated fabric \"" + fabric.name + "\": " + std::to_string(per_domain) +
                    " consecutive hosts a domain (HOST: CLUSTER_UUID.CLIQUE_ID, as azslurm writes them)\n";
  char uuid[64];
  for (size_t i = 0; i < hosts.size(); ++i) {
    const size_t domain = i / per_domain;
    // Version-4-shaped, from the fabric (its first host HCA's GUID) and the domain's number.
    std::snprintf(uuid, sizeof uuid, "%08x-%04x-4000-8000-%012llx", static_cast<unsigned>(first_guid >> 32),
                  static_cast<unsigned>((first_guid >> 16) & 0xffff), static_cast<unsigned long long>(domain + 1));
    out += hosts[i] + ": " + uuid + ".1\n";
  }
  return out;
}

void give_factory_descriptions(Fabric& fabric) {
  for (auto& n : fabric.nodes)
    if (is_synthetic_host_hca(n)) n.description = synthetic_factory_description(n.device_id);
}

}  // namespace slurmtopo
