// Which rails define the cluster's units, and which are side rails (storage, management).
//
// In a rail-optimized fabric every compute rail splits the hosts the same way (one scalable
// unit per leaf set); a storage rail splits them differently, or not at all. Grouping hosts by
// every rail at once would cut units apart wherever the storage switches do not line up with
// them, so rails are clustered by how well their splits agree and the largest cluster wins.
#pragma once

#include <vector>

namespace slurmtopo {

// rail_switch[r][h]: the switch host h's rail-r HCA is cabled to, -1 if it has none.
// Returns, per rail, whether it is a side rail: one that disagrees with the rails of the
// largest agreeing cluster. With one rail, or when all agree, none is.
std::vector<bool> side_rails(const std::vector<std::vector<int>>& rail_switch);

// How much two rails agree: the share of hosts (having both) whose rail-b switch is the one
// most hosts on their rail-a switch use, taken the worse way round.
double rail_agreement(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace slurmtopo
