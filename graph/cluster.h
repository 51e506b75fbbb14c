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
  int rail = -1;          // leaves of units of several leaves: the rail it carries (Cluster::rails)
};

// What the HCA's description (or a map) says about who owns it.
struct Hca {
  Vertex vertex = 0;
  int fabric = 0;
  uint64_t guid = 0;
  std::string description;
  std::string host;       // empty when unresolved
  std::string rail;       // the HCA's name within its host ("mlx5_0", "HCA-1"), "" if none
  int slot = -1;          // the position its name gives (HCA-5 of HCA-1/2/5/6 is 2); -1 unhosted
  int position = -1;      // its rail (Cluster::rails): the rail of the unit's leaf it reaches
  std::string unresolved; // why no host name could be used; empty when resolved
  bool excluded = false;  // site config excludes its host (storage, login)
  std::vector<int> switches;  // indices into Cluster::switches, one per cabled port
  std::vector<int> ports;     // the switch port of each entry in `switches`
};

struct Host {
  std::string name;
  int fabric = 0;
  std::vector<int> hcas;   // indices into Cluster::hcas, sorted by rail name
  int group = -1;
  // Its only HCAs are on side (storage) rails: not a compute host; topology.conf leaves it
  // out unless Slurm's node list names it.
  bool storage = false;
};

// A rail: one position in every unit (the unit's rail-k leaf), whatever its HCAs are called.
struct Rail {
  std::string name;                    // "rail 1", …
  std::vector<std::string> hca_names;  // what its HCAs are called, most common first
  bool side = false;                   // a storage/side rail: defines no unit
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
    MissingRail, MiscabledRail, SecondaryLeaf, CrossedRails, MissingLeaf,
    PartialHost,
  };
  Kind kind;
  std::string subject;  // the switch, host, HCA or cable it is about
  std::string detail;
};
const char* to_string(Anomaly::Kind kind);

// How much of a --node-name-map the fabric uses: a map for another cluster matches nothing.
struct NameMapUse {
  std::string source;  // "" when no map was given
  int entries = 0;
  int matched = 0;     // entries naming a node or port GUID of the fabric
  int unknown() const { return entries - matched; }
};

struct Cluster {
  std::vector<Fabric> fabrics;
  NameMapUse name_map;
  FabricGraph graph;
  // By fabric, then link: the graph vertices of the link's a and b ends (-1: a GUID that is
  // no node of the fabric), so that a reader of the cables need not look every end up again.
  std::vector<std::vector<std::pair<int, int>>> link_vertices;
  std::vector<SwitchInfo> switches;  // by fabric, then name
  std::vector<Hca> hcas;             // compute HCAs only (no SHARP aggregation nodes)
  std::vector<Host> hosts;           // Slurm node order (natural sort)
  std::vector<Group> groups;         // by first host
  std::vector<Rail> rails;           // by position in the unit
  // Fabrics joined as rail planes of one cluster (the same hosts, as many HCAs on each).
  std::vector<std::vector<int>> planes;
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
