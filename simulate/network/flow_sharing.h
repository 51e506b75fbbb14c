// Flow-level max-min fair sharing: every flow gets the largest rate such that no resource
// (a cable direction, a NIC, a PCIe or NVLink port) carries more than its capacity, and no
// flow can grow without shrinking one that is not faster.
//
// A flow of rate r puts weight × r on each of its resources (weight = the share of the flow
// that crosses it: 1.0 on a path, fractions when adaptive routing splits it). Rates are what
// is equalised; weights only say how much of a resource each unit of rate uses.
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
  std::vector<double> weights;   // share of the flow on each resource; empty = all 1.0
  double demand = 1e300;         // GB/s cap (e.g. a GPU's copy-engine limit); default unbounded
};

// A resource the flow lists more than once (a link on several of its adaptive or ftree paths)
// becomes one crossing of summed weight, resources in increasing order, as max_min_fair wants
// them ("each crossed once"); empty weights count 1.0 each.
void merge_repeated_resources(Flow& flow);

struct Sharing {
  std::vector<double> rate;          // GB/s per flow
  std::vector<double> load;          // GB/s per resource
  std::vector<int> bottleneck;       // per flow: the resource that froze it, -1 if demand-bound
};

// Progressive filling (water-filling), exact: all unfrozen flows rise together; when a
// resource fills, the flows crossing it freeze at that rate with it as their bottleneck; a
// flow reaching its demand freezes there. Resources filling at the same level fill in index
// order (so a caller numbering them in a stable order gets stable bottlenecks). The next
// resource to fill comes from a heap keyed by the level at which it fills, corrected only
// when an entry reaches the top, so the cost is O(resources log resources + total crossings).
// A flow with no resource of positive weight gets its demand. Throws std::invalid_argument on
// a resource index out of range or weights of the wrong length.
Sharing max_min_fair(const std::vector<Resource>& resources, const std::vector<Flow>& flows);

}  // namespace slurmtopo
