// The fabric's share of the contention model: one max-min resource per cable direction, with
// what that direction carries, and the conversion from routed paths to flows.
//
// Capacity = the cable's data rate (Link::gbps(), after 8b/10b or 64b/66b encoding) / 8 to
// GB/s, × kCableEfficiency = 0.98: what a stream of large RDMA writes gets through one link
// (ib_write_bw ≈ 392 Gb/s on NDR 4x's 400, ../shared/reference/collectives.md), i.e. packet
// headers and flow-control credits. NDR 4x: 400 Gb/s → 50 GB/s raw → 49 GB/s. A NIC's own
// limit (NCCL sees 46–49 GB/s per NDR NIC) is the NIC resource's business, not the cable's.
//
// Names: "<from>[<port>]-><to>[<port>]", ends named as the model knows them: switches by
// their Slurm-safe name ("leaf001[33]->spine02[1]"), compute HCAs as "<host> <rail>"
// ("gpu001 mlx5_0[1]->leaf001[1]"), anything else by its description or GUID; with several
// fabrics every name starts with "<fabric name>:".
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"
#include "simulate/network/flow_sharing.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

constexpr double kCableEfficiency = 0.98;

struct FabricResources {
  std::vector<Resource> resources;  // per fabric, per cable: a→b then b→a
  std::vector<int> fabric_offset;   // first resource of each fabric
  // By graph vertex, what names it (number_cables only): the switch, and the HCA with a host,
  // or -1. A bottleneck's name is then a lookup, not a scan of 32,768 HCAs per cable end.
  std::vector<int> switch_at, hca_at;

  int index(const DirectedLink& d) const {
    return fabric_offset[d.fabric] + 2 * d.link + (d.a_to_b ? 0 : 1);
  }
  DirectedLink link_of(int resource) const;
};

FabricResources make_fabric_resources(const Cluster& cluster, double efficiency = kCableEfficiency);
// The numbering alone (fabric_offset and the vertices' namers, no resources), and the name
// make_fabric_resources gives one resource, made on its own: naming all 393,216 cable
// directions of a 65,536-host fabric costs more than a prediction on it, which reports ten.
FabricResources number_cables(const Cluster& cluster);
std::string cable_name(const Cluster& cluster, const FabricResources& cables, int resource);

// Appends a routed flow's cable crossings to `flow` (resource indices offset by `base`, the
// position of these resources in the caller's combined list), summing the shares a link gets
// from several PathShares. Resources already in the flow are merged, not repeated.
void add_path_resources(const FabricResources& fabric, const std::vector<PathShare>& paths,
                        Flow& flow, int base = 0);

}  // namespace slurmtopo
