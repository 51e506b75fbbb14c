// The tree Slurm's topology/tree plugin should see, built bottom-up from the cluster model.
//
// Leaves are host groups. Each level above joins the units that its switches connect: all the
// spines of a plane become one Slurm switch, a pod's aggregation switches one more. Slurm can
// not tell such switches apart when placing jobs, and fewer switches keep slurmctld's O(S^3)
// distance pass cheap. Parts of one fabric joined only sideways (leaf-to-leaf or
// spine-to-spine cables) get a root for that fabric; separate fabrics never share a root.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct Cluster;

struct SlurmSwitch {
  std::string name;
  int level = 1;                     // 1 = leaf
  int fabric = 0;
  std::vector<std::string> nodes;    // leaves only, Slurm's node order
  std::vector<int> children;         // indices into SlurmTree::switches
  std::vector<std::string> members;  // the fabric switches it stands for; empty when synthetic
};

struct SlurmTree {
  std::vector<SlurmSwitch> switches;  // leaves first, every child before its parent
  std::vector<int> roots() const;     // switches nobody lists as a child
};

// Names of multi-switch units follow the site's group_name_regex (Cluster::group_name_regex).
SlurmTree build_slurm_tree(const Cluster& cluster);

// Drops nodes not in `keep` (sorted by natural_less), then switches left with nothing below.
SlurmTree restrict_to_nodes(const SlurmTree& tree, const std::vector<std::string>& keep);

}  // namespace slurmtopo
