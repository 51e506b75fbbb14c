// NVL72 racks as `generate railopt --hosts-per-su 18 --rails 4 --nvlink-domain-nodes 18`
// makes them, for the tests: one scalable unit a rack of 18 trays, each tray's 4 NICs on their
// rail leaves, a non-blocking fabric, and the racks' NVLink domains. dgx001-018 is rack 1,
// dgx019-036 rack 2, …
#pragma once

#include <map>

#include "discover/nvlink_domains.h"
#include "discover/synthetic_fabric.h"
#include "discover/synthetic_names.h"
#include "graph/cluster.h"
#include "simulate/collective/nvlink_domain.h"

namespace slurmtopo::testing {

struct Nvl72Racks {
  Fabric fabric;
  Cluster cluster;
  HostDomains domains;
};

// Built once per rack count.
inline const Nvl72Racks& nvl72_racks(int racks) {
  static std::map<int, Nvl72Racks> built;
  auto it = built.find(racks);
  if (it != built.end()) return it->second;
  RailOptimizedSpec spec;
  spec.scalable_units = racks;
  spec.hosts_per_su = 18;
  spec.rails = 4;
  Nvl72Racks r;
  r.fabric = generate_rail_optimized(spec);
  r.cluster = build_cluster({r.fabric}, ClusterOptions{});
  r.domains = host_domains(parse_nvlink_domains(synthetic_nvlink_domains(r.fabric, 18), "nvl72.domains"));
  return built.emplace(racks, std::move(r)).first->second;
}

}  // namespace slurmtopo::testing
