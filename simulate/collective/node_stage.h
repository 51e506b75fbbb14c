// The flows of one collective inside a node — NVLink (or PCIe) ports, each direction — and
// their max-min sharing. All nodes are alike, so this is solved once, on the first node.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "graph/cluster.h"
#include "simulate/collective/flow_problem.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/placement.h"

namespace slurmtopo {

class NodeStage {
 public:
  NodeStage(const Cluster& cluster, const Placement& placement, const HardwareProfile& h, double efficiency)
      : h_(h) {
    const std::string host = placement.hosts.empty() ? "node" : cluster.hosts[placement.hosts.front()].name;
    const bool nvlink = h.nvlink_links > 0;
    const double cap = (nvlink ? h.nvlink_gbs() : h.pcie_gbs()) * efficiency;
    const int gpus = h.gpus_per_node;
    for (int g = 0; g < gpus; ++g) {
      p_.capacity.push_back(cap);  // 2g: tx
      p_.capacity.push_back(cap);  // 2g+1: rx
    }
    const std::string port = nvlink ? " NVLink " : " PCIe ";
    const bool domains = !placement.gpu_names.empty();
    const std::string suffix =
        placement.hosts.size() > 1 ? (domains ? " (every NVLink domain alike)" : " (every node alike)") : "";
    p_.name = [host, port, suffix, names = placement.gpu_names](int r) {
      const int g = r / 2;
      const std::string gpu = g < static_cast<int>(names.size()) ? names[g] : host + " GPU" + std::to_string(g);
      return gpu + port + (r % 2 ? "rx" : "tx") + suffix;
    };
  }

  // `count` channels send from GPU a to GPU b.
  void hop(int a, int b, double count) {
    auto key = std::make_pair(a, b);
    const auto it = index_.find(key);
    if (it != index_.end()) {
      FlowSet& set = p_.flows;
      for (int k = set.begin(it->second); k < set.end(it->second); ++k) set.weights[k] += count;
      p_.count[it->second] += count;
      return;
    }
    index_[key] = static_cast<int>(p_.flows.size());
    p_.flows.add({{2 * a, 2 * b + 1}, {count, count}});
    p_.count.push_back(count);
  }

  // One flow per GPU into and out of the switch, `tx`/`rx` bytes per byte of the result.
  void nvls(double tx, double rx) {
    for (int g = 0; g < h_.gpus_per_node; ++g) {
      p_.flows.add({{2 * g, 2 * g + 1}, {tx, rx}});
      p_.count.push_back(1);
    }
  }

  Solved solve() const {
    if (p_.flows.empty()) return {};
    const Sharing s = max_min_fair(p_.capacity, p_.flows);
    return solve_problem(p_, s, s.rate);  // nothing inside a node is hidden from NCCL
  }
  int flows() const { return static_cast<int>(p_.flows.size()); }

 private:
  const HardwareProfile& h_;
  Problem p_;
  std::map<std::pair<int, int>, int> index_;
};

}  // namespace slurmtopo
