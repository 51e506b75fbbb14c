// One model of the cluster: the fabric graph (Boost.Graph) with what slurmtopo infers from it —
// hosts and their HCAs, leaves, switch levels, rails, host groups, and what looks wrong.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/name_map.h"
#include "discover/site_config.h"

namespace slurmtopo {

struct ClusterOptions {
  SiteConfig site;
  NameMap names;  // GUID → hostname, wins over the node description
};

// Vertex/edge payloads point back into Cluster::fabrics, which own the facts.
struct VertexRef { int fabric = 0; int node = 0; };
struct EdgeRef { int fabric = 0; int link = 0; };
using FabricGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                          VertexRef, EdgeRef>;
using Vertex = FabricGraph::vertex_descriptor;

enum class SwitchRole {
  Leaf,       // carries compute hosts' HCAs: a Slurm leaf (alone or within a group)
  Secondary,  // carries HCAs of hosts that belong to several groups (storage rail): not a leaf
  Upper,      // above the leaves (spine, core, director spine modules)
  Detached,   // no compute path: storage-only tiers, switches with no leaf below
};
const char* to_string(SwitchRole role);

struct SwitchInfo {
  Vertex vertex = 0;
  int fabric = 0;
  uint64_t guid = 0;
  std::string name;       // readable, Slurm-safe, unique
  SwitchRole role = SwitchRole::Detached;
  int level = 0;          // leaf = 1; 0 when not on a compute path
  int component = -1;     // connected component of its fabric (global index)
  int host_ports = 0;     // cables to compute HCAs (named or not)
  int uplinks = 0;        // cables to switches of a higher level
  int group = -1;         // leaves: the group holding most of its hosts
};

// What the HCA's description (or a map) says about who owns it.
struct Hca {
  Vertex vertex = 0;
  int fabric = 0;
  uint64_t guid = 0;
  std::string description;
  std::string host;       // empty when unresolved
  std::string rail;       // the HCA's name within its host ("mlx5_0", "HCA-1"), "" if none
  std::string unresolved; // why no host name could be used; empty when resolved
  bool excluded = false;  // site config excludes its host (storage, login)
  std::vector<int> switches;  // indices into Cluster::switches, one per cabled port
};

struct Host {
  std::string name;
  int fabric = 0;
  std::vector<int> hcas;   // indices into Cluster::hcas, sorted by rail name
  int group = -1;
};

// Hosts that reach the same set of leaves: what Slurm sees as one leaf switch.
struct Group {
  std::string name;
  int fabric = 0;
  int component = -1;
  std::vector<int> leaves;  // switch indices, by name
  std::vector<int> hosts;   // host indices, in Slurm's node order
};

struct Anomaly {
  enum class Kind {
    PartialSweep, MissingUplinks, DegradedLink, Loopback, LeafToLeaf, UnresolvedHca,
    MissingRail, MiscabledRail, SecondaryLeaf, SplitFabrics,
  };
  Kind kind;
  std::string subject;  // the switch, host, HCA or cable it is about
  std::string detail;
};
const char* to_string(Anomaly::Kind kind);

struct Cluster {
  std::vector<Fabric> fabrics;
  FabricGraph graph;
  std::vector<SwitchInfo> switches;  // by fabric, then name
  std::vector<Hca> hcas;             // compute HCAs only (no SHARP aggregation nodes)
  std::vector<Host> hosts;           // Slurm node order (natural sort)
  std::vector<Group> groups;         // by first host
  std::vector<std::string> rails;    // distinct rail names, natural order
  std::vector<int> component_fabric; // fabric of each component
  std::vector<Anomaly> anomalies;
  int aggregation_nodes = 0;         // SHARP ANs seen (and ignored as hosts)
  std::string group_name_regex;      // from the site config: names multi-switch units
  int max_level = 0;

  int host_index(const std::string& name) const;  // -1 if absent
};

// Throws InputError when an option cannot be applied (e.g. an invalid host regex).
Cluster build_cluster(std::vector<Fabric> fabrics, const ClusterOptions& options);

}  // namespace slurmtopo
