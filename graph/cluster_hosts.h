// Who the hosts are: each HCA's host and name (descriptions, name maps, site exclusions), the
// hosts assembled from their HCAs — across fabrics joined as rail planes — and the slots their
// names give. Part of build_cluster (graph/cluster.cc).
#pragma once

#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

// Cluster::hcas (and name_map) from the CAs of every fabric; `switch_of` maps vertices to
// switch indices. Throws InputError for an invalid host regex.
void identify_hcas(Cluster& c, const ClusterOptions& options, const std::vector<int>& switch_of);

// Cluster::hosts, planes, and each HCA's slot.
void assemble_hosts(Cluster& c);

// Two fabrics sharing a switch GUID are one subnet given twice: InputError naming both.
void refuse_same_subnet(const std::vector<Fabric>& fabrics);

}  // namespace slurmtopo
