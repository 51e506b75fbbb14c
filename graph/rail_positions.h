// Which rail an HCA is on: its position in the unit — which of the unit's leaves it reaches —
// not its name. One fabric can call rail 3 "HCA-5" on some hosts and "mlx5_4" on others
// (topograph's DGX dump), and a crossed pair of cables puts a host's HCA-5 on the rail-4 leaf.
//
// Names only vote: within a naming family ("HCA-", "mlx5_") the n-th distinct number is slot n
// (HCA-1/2/5/6 and mlx5_0/1/4/5 are both slots 0-3). After grouping, each leaf of a unit of
// several leaves carries the slot most of its HCAs have, and every HCA's rail is its leaf's.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct Cluster;

// Per name, its slot within its family; "" → -1.
std::vector<int> name_slots(const std::vector<std::string>& names);

// Leaves' rails, HCAs' positions and Cluster::rails, from Hca::slot and the groups.
// `side[slot]` marks side (storage) rails.
void assign_rails(Cluster& cluster, const std::vector<bool>& side);

// Crossed rails (a host's rail-j HCA on the rail-k leaf and the reverse) and units with no
// leaf for a rail the other units have. After the groups are named.
void record_rail_anomalies(Cluster& cluster);

}  // namespace slurmtopo
