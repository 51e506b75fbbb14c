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

// Many flows in a few flat arrays, the form max_min_fair works on: flow f crosses
// resources[first[f] .. first[f + 1]) with the weights at the same positions (unless not
// `weighted`: every crossing 1.0). A caller adding thousands of flows per solve builds it directly,
// without a vector per flow.
struct FlowSet {
  std::vector<int> first{0};
  std::vector<int> resources;
  std::vector<double> weights;  // one per crossing if `weighted`, else empty
  std::vector<double> demand;   // per flow
  bool weighted = false;        // false: every crossing weighs 1.0

  size_t size() const { return demand.size(); }
  bool empty() const { return demand.empty(); }
  void reserve(size_t flows, size_t crossings) {
    first.reserve(flows + 1);
    demand.reserve(flows);
    resources.reserve(crossings);
  }
  // Appends a flow (weights: empty for all 1.0). Weights appear for every flow once one has
  // them.
  void add(const Flow& f);
  // Ends the flow whose crossings were pushed onto `resources` (and `weights`, if kept) since
  // the last one ended.
  void close(double flow_demand = 1e300) {
    first.push_back(static_cast<int>(resources.size()));
    demand.push_back(flow_demand);
  }
  // Merges the resources the open flow (pushed since the last close) lists more than once,
  // as merge_repeated_resources does for a Flow. Needs `weighted`.
  void merge_open();
  // Every crossing's weight, made explicit (1.0 where there were none).
  void make_weighted() {
    if (!weighted) weights.assign(resources.size(), 1.0);
    weighted = true;
  }
  int begin(size_t f) const { return first[f]; }
  int end(size_t f) const { return first[f + 1]; }
  double weight(int k) const { return weighted ? weights[k] : 1.0; }
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
Sharing max_min_fair(const std::vector<double>& capacity, const FlowSet& flows);  // GB/s per resource
Sharing max_min_fair(const std::vector<Resource>& resources, const FlowSet& flows);
// The same filling, stopped once the next resource would fill (or flow reach its demand) more
// than `headroom` (relative) above the first level at which a flow froze. Every flow frozen up
// to there has the rate and bottleneck a full solve gives it, and so has the load every
// resource whose flows all froze. A flow still rising gets the level filling stopped at (a
// lower bound on its rate, above the first level × (1 + headroom)) and bottleneck -1, and
// counts in no resource's load. A collective alone on the fabric runs at its slowest
// channel, so this is all it needs: often most flows are faster than the slowest and never
// freeze.
Sharing max_min_fair_slowest(const std::vector<double>& capacity, const FlowSet& flows, double headroom);
Sharing max_min_fair(const std::vector<Resource>& resources, const std::vector<Flow>& flows);

}  // namespace slurmtopo
