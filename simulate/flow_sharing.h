// Flow-level max-min fair sharing: every flow gets the largest rate such that no resource
// (a cable direction, a NIC, a PCIe or NVLink port) carries more than its capacity, and no
// flow can grow without shrinking one that is not faster.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct Resource {
  std::string name;      // "leaf01[33]->spine02[1]", "gpu001 mlx5_0 tx", "gpu001 NVLink gpu3 tx"
  double capacity = 0;   // GB/s
};

struct Flow {
  std::vector<int> resources;    // indices into the resource list, each crossed once
  std::vector<double> weights;   // share of the flow on each resource (1.0 unless split)
  double demand = 1e300;         // GB/s cap (e.g. a GPU's copy-engine limit); default unbounded
};

struct Sharing {
  std::vector<double> rate;          // GB/s per flow
  std::vector<double> load;          // GB/s per resource
  std::vector<int> bottleneck;       // per flow: the resource that froze it, -1 if demand-bound
};

// Progressive filling; O(iterations × total resource crossings).
Sharing max_min_fair(const std::vector<Resource>& resources, const std::vector<Flow>& flows);

}  // namespace slurmtopo
