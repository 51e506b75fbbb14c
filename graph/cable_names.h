// How a finding names a cable end: "leaf01[3]" for a switch port, "gpu001 mlx5_0" for a named
// HCA, "0x<guid>[1]" otherwise; a cable is its two ends joined by " - ".
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

class CableNames {
 public:
  // `switch_of` maps graph vertices to Cluster::switches (-1: not a switch); the cluster's
  // switches and HCAs must be in place.
  CableNames(const Cluster& cluster, const std::vector<int>& switch_of);
  // The same, `switch_of` derived from Cluster::switches: for a cluster already built.
  explicit CableNames(const Cluster& cluster);

  std::string end(Vertex v, int port) const;
  std::string cable(Vertex a, int port_a, Vertex b, int port_b) const {
    return end(a, port_a) + " - " + end(b, port_b);
  }
  int switch_at(Vertex v) const { return switch_of_[v]; }  // -1: not a switch
  int hca_at(Vertex v) const { return hca_of_[v]; }        // -1: no compute HCA

 private:
  const Cluster& c_;
  std::vector<int> switch_of_;
  std::vector<int> hca_of_;
};

}  // namespace slurmtopo
