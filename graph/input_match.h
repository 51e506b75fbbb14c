// Inputs that must describe the same cluster as the fabric: Slurm's node list (slurm.conf's
// NodeName lines, --nodes) and a topology file in service. A Slurm node with no HCA in the
// fabric is under no switch of the topology slurmtopo writes, so the tree plugin can never
// place it; a file that shares no host with the fabric belongs to another cluster.
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "graph/finding_kind.h"
#include "graph/hca_guesses.h"

namespace slurmtopo {

struct Cluster;

struct InputFinding {
  enum class Kind {
    SlurmNodesNotInFabric,  // some of Slurm's nodes have no HCA in the fabric
    SlurmNotThisCluster,    // none of them is a host of the fabric
    TopologyNotThisCluster, // the topology in service names no host of the fabric
    Count                   // not a kind: the number of kinds
  };
  Kind kind;
  std::string subject;  // a hostlist, or the file
  std::string detail;
  int count = 1;        // nodes it is about
};

// Each kind's name, check and severity, in Kind's order (graph/finding_kind.h).
inline constexpr FindingKind kInputFindingKinds[] = {
    {"slurm-node-not-in-fabric", "slurm.nodes", Severity::Fail,
     "Slurm nodes with no HCA in the fabric: under no switch of the topology, never placed by the tree plugin", "nodes"},
    {"slurm-not-this-cluster", "inputs.match", Severity::Fail,
     "none of Slurm's nodes is a host of the fabric: a slurm.conf of another cluster", "nodes"},
    {"topology-not-this-cluster", "inputs.match", Severity::Fail,
     "the topology file in service names no host of the fabric: another cluster's file", "nodes"},
};
static_assert(std::size(kInputFindingKinds) == static_cast<size_t>(InputFinding::Kind::Count));
const FindingKind& finding_kind(InputFinding::Kind kind);
const char* to_string(InputFinding::Kind kind);

// Slurm's nodes against the fabric's hosts. Nodes missing from the fabric whose HCAs are likely
// among the unnamed ones (`guesses`, graph/hca_guesses.h) are named apart, each with where its
// HCAs probably are when `places`. `source` names the list ("slurm.conf", "--nodes"). Nothing
// when every node is a host of the fabric.
std::optional<InputFinding> match_slurm_nodes(const Cluster& cluster, const std::vector<std::string>& slurm_nodes,
                                              const std::string& source, const HcaGuesses& guesses, bool places);

// The nodes a topology file in service lists, against the fabric's hosts: a finding only when
// it shares none of them.
std::optional<InputFinding> match_topology_nodes(const Cluster& cluster, const std::vector<std::string>& nodes,
                                                 const std::string& source);

}  // namespace slurmtopo
