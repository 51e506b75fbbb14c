// The best placement a job could get, whatever Slurm does, with "best" meaning the fewest
// switches spanned: the smallest subtree of the topology that holds the job (lowest level,
// then fewest free nodes, then file order); inside a switch, the child that holds the rest
// most tightly if one does, else whole children with the most free nodes first. This gives
// the fewest leaves the free nodes allow, and few groups; it does not search by predicted
// cost (on a fat tree the two agree; the what-if output shows both).
#pragma once

#include <vector>

#include "simulate/scheduler/leaf_tree.h"

namespace slurmtopo {

// Node indices, ascending; empty when fewer than `count` free nodes sit under one root.
std::vector<int> best_placement(const LeafTree& tree, const std::vector<char>& busy, int count);

}  // namespace slurmtopo
