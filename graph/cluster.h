// One model of the cluster: the fabric graph (Boost.Graph) with what slurmtopo infers from it —
// hosts and their HCAs, leaves, switch levels, rails, host groups, and what looks wrong.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "discover/cable_plan.h"
#include "discover/fabric.h"
#include "discover/name_map.h"
#include "discover/port_counters.h"
#include "discover/site_config.h"
#include "graph/finding_kind.h"
#include "graph/hca_guesses.h"

namespace slurmtopo {

struct ClusterOptions {
  SiteConfig site;
  NameMap names;  // GUID → hostname, wins over the node description
  // Each cable's rate against what its two ends can do (graph/link_rates.h): a tenth of the
  // model of a large fabric, and read only by what reports findings (inspect, report, apply's
  // --max-anomalies). Without it, Cluster::link_rates and unknown_devices stay empty and no
  // degraded-link or slow-link-group finding is made.
  bool judge_cable_rates = true;
  // Port counters read from the files admins keep or a live sweep (graph/link_health.h).
  std::vector<CounterReadings> counters;
  // Cabling plans the fabric's cables are compared with (graph/plan_check.h).
  std::vector<CablePlan> plans;
};

// Vertex/edge payloads point back into Cluster::fabrics, which own the facts.
struct VertexRef { int fabric = 0; int node = 0; };
struct EdgeRef { int fabric = 0; int link = 0; };
// Edges in a vector rather than boost's default list: the graph is built once and never loses
// an edge, and a list node per cable was 25k allocations on an 8,192-HCA fabric.
using FabricGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                          VertexRef, EdgeRef, boost::no_property, boost::vecS>;
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

// What a host is built as. Only compute hosts are placed by default: topology.conf, and the
// partition whatif and the report's predictions use, leave the others out unless Slurm's node
// list (--nodes, --slurm-conf) names them.
enum class HostRole {
  Compute,
  Storage,  // HCAs on side (storage) rails only, or a lone HCA on a storage leaf
  Service,  // at most half its unit's rails and named unlike its peers (a UFM or service host)
  Unplaced, // only its storage HCA is named, while HCAs guessed to be its sit on compute leaves:
            // a compute host whose compute HCAs lack names; no leaf can be given to Slurm
};
const char* to_string(HostRole role);

struct Host {
  std::string name;
  int fabric = 0;
  std::vector<int> hcas;   // indices into Cluster::hcas, sorted by rail name
  int group = -1;
  HostRole role = HostRole::Compute;
  bool compute() const { return role == HostRole::Compute; }
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
    PartialSweep, NoFabric, MissingUplinks, DegradedLink, SlowLinkGroup, Loopback, LeafToLeaf, UnresolvedHca,
    MissingRail, MiscabledRail, SecondaryLeaf, CrossedRails, MissingLeaf, PartialHost,
    CableErrors, UpstreamErrors, Congestion, ConfigErrors, SwitchErrors, UnmatchedCounters,
    PlanSwappedCables, PlanWrongPort, PlanWrongDevice, PlanMissingCable, PlanSlowCable, PlanMissingDevice,
    PlanUnknownDevice, PlanExtraCable,
    Count  // not a kind: the number of kinds
  };
  Kind kind;
  std::string subject;  // the switch, host, HCA or cable it is about
  std::string detail;
  int count = 1;        // the things it is about: HCAs for one unresolved-hca line per leaf
  std::vector<int> leaves{};  // missing-rail: the leaves (Cluster::switches) the host lacks a cable to
};

// Each kind's name, check and severity, in Kind's order (graph/finding_kind.h).
inline constexpr FindingKind kAnomalyKinds[] = {
    {"partial-sweep", "fabric.sweep", Severity::Fail,
     "the dump holds umad errors, or nodes seen only as a cable's far end: the sweep did not reach them", "sweeps"},
    {"no-fabric", "fabric.sweep", Severity::Fail, "the input holds no switch and no cable: nothing to place jobs on", "fabrics"},
    {"missing-uplinks", "fabric.uplinks", Severity::Fail,
     "a leaf has fewer cables to some upper switch than its peers have, while it matches them on others", "leaves"},
    {"degraded-link", "fabric.cabling", Severity::Fail,
     "a cable runs below the best rate both its ends support (or the site's expected link, capped by it); "
     "where the ends' device ids are unknown, below the usual rate of the cables between the same devices",
     "cables"},
    {"slow-link-group", "fabric.cabling", Severity::Warn,
     "at least 4 cables of one kind (the same device pair at the same switch levels) all run at one rate "
     "below what both ends support: one finding for the group",
     "cables"},
    {"loopback", "fabric.cabling", Severity::Fail, "a cable from a switch back to itself", "cables"},
    {"leaf-to-leaf", "fabric.cabling", Severity::Fail,
     "a cable between two leaves of a fabric that has switches above its leaves", "cables"},
    {"unresolved-hca", "fabric.hcas", Severity::Warn,
     "an HCA whose node description (or map entry) names no usable host: one line per switch", "HCAs"},
    {"missing-rail", "fabric.rails", Severity::Fail,
     "a host has no cable to a leaf of its unit that the unit's other hosts reach", "hosts"},
    {"miscabled-rail", "fabric.rails", Severity::Fail, "a host's HCA is cabled to a leaf outside its unit", "hosts"},
    {"secondary-leaf", "fabric.rails", Severity::Info,
     "a switch carrying HCAs of hosts of several units (a storage rail): kept out of Slurm's leaves", "switches"},
    {"crossed-rails", "fabric.rails", Severity::Fail,
     "two HCAs of one host on each other's rail leaves, the reverse of the unit's other hosts", "hosts"},
    {"missing-leaf", "fabric.rails", Severity::Fail,
     "a unit has no leaf for a rail that the other units have (the switch is absent from the sweep)", "units"},
    {"partial-host", "fabric.rails", Severity::Info,
     "a host reaching at most half its unit's leaves, not named like its peers (a UFM or service host): "
     "left out of Slurm's files", "hosts"},
    {"cable-errors", "fabric.errors", Severity::Fail,
     "a cable end counts symbol errors, link recoveries or downs, receive errors, local link integrity errors or "
     "buffer overruns above its threshold: reseat or replace the cable", "cable ends"},
    {"upstream-errors", "fabric.errors", Severity::Warn,
     "a port receives packets already marked bad above its threshold: the faulty cable is an earlier one on the path",
     "cable ends"},
    {"congestion", "fabric.errors", Severity::Warn,
     "a cable end discards packets, or waits to send, above its threshold: congestion, not the cable", "cable ends"},
    {"config-errors", "fabric.errors", Severity::Warn,
     "a port counts partition (P_Key) constraint errors, or relay errors or VL15 drops where the site judges them, "
     "above its threshold", "cable ends"},
    {"switch-errors", "fabric.errors", Severity::Warn,
     "a switch's ports summed (perfquery -a) are above a threshold: which cable is not known until its ports are "
     "read one by one", "switches"},
    {"unmatched-counters", "inputs.match", Severity::Warn,
     "a counters file names ports that are not in the fabric (another fabric's file?)", "ports"},
    {"plan-swapped-cables", "fabric.plan", Severity::Fail,
     "two cables with their ends exchanged against the cabling plan (two ports of a leaf, two HCAs of a host, or "
     "two leaves): swap them", "cables"},
    {"plan-wrong-port", "fabric.plan", Severity::Fail,
     "a planned cable reaches the right device on another port: move it to the planned port", "cables"},
    {"plan-wrong-device", "fabric.plan", Severity::Fail,
     "a planned cable reaches another device than the plan's: move it to the planned device and port", "cables"},
    {"plan-missing-cable", "fabric.plan", Severity::Fail,
     "a planned cable is in neither of its ports, both devices being in the fabric: lay it, or look at the ports",
     "cables"},
    {"plan-slow-cable", "fabric.plan", Severity::Fail,
     "a planned cable runs below the plan's width or speed: reseat or replace it", "cables"},
    {"plan-missing-device", "fabric.plan", Severity::Fail,
     "a device of the plan is absent from the fabric, with its planned cables: power it or cable it", "devices"},
    {"plan-unknown-device", "fabric.plan", Severity::Warn,
     "a device of the fabric the plan does not know, with its cables (added since, or named otherwise)", "devices"},
    {"plan-extra-cable", "fabric.plan", Severity::Warn,
     "a cable the plan does not have, between devices it knows: remove it, or add it to the plan", "cables"},
};
static_assert(std::size(kAnomalyKinds) == static_cast<size_t>(Anomaly::Kind::Count));
const FindingKind& finding_kind(Anomaly::Kind kind);
const char* to_string(Anomaly::Kind kind);  // finding_kind(kind).name

// How many cables of a fabric run at one rate, and why that rate (graph/link_rates.h): the
// inventory inspect prints, e.g. 23 cables 4xDDR: "ConnectX MT26418 supports DDR at most".
struct LinkRateCount {
  int fabric = 0;
  int width = 0;
  LinkSpeed speed = LinkSpeed::Unknown;
  std::string why;
  int cables = 0;
};

// A device id the table (discover/device_ids.h) does not know, on the ends of judged cables:
// what those ends support is unknown, so their cables are judged against their peers.
struct UnknownDevice {
  uint32_t vendor_id = 0, device_id = 0;  // both 0: the input carries no ids
  int nodes = 0;
};

// One counters input, and how its ports met the fabric.
struct CounterSource {
  std::string source, form, read_at;  // CounterReadings'
  double interval_s = 0;
  int ports = 0;        // ports it gave one by one (switch port 0 included)
  int matched = 0;      // found on a cable end
  int no_cable = 0;     // ports of fabric switches with no cable (or a switch's port 0)
  int unknown = 0;      // GUIDs or LIDs the fabric does not have
  int ambiguous = 0;    // LIDs found in several fabrics (perfquery names no subnet)
  int summed = 0;       // a switch's ports summed (port ALL / 255)
  int failed_queries = 0;
};

// One cabling plan, and how the fabric's cables met it (graph/plan_check.h).
// One switch of a plan's comparison: a row of the report's per-leaf table.
struct PlanSwitchTally {
  std::string name;  // as the plan and the fabric both name it
  int planned = 0;   // planned cables with an end on it
  int present = 0;   // of those, as planned
  int findings = 0;  // plan findings that name one of its ports (a device finding counts once)
};

struct PlanSummary {
  std::string source;
  int planned = 0;        // cables in the plan
  int present = 0;        // as planned (speed and width included)
  int fabric_cables = 0;  // cables in the fabric
  int findings = 0;       // plan findings it gave
  int merged = 0;         // other checks' findings about the same cables that its findings replace
  std::vector<PlanSwitchTally> switches;  // the fabric's switches the plan names, by name
};

// A cable end whose counters are not all zero; with `over` set, above a threshold: a row of the
// report's link-health list.
struct CableEndHealth {
  std::string cable;      // this end first: "leaf01[3] - dgx001 mlx5_0"
  int fabric = 0, link = 0;
  bool b_end = false;     // which end of Fabric::links[link] counted
  int source = 0;         // index into Cluster::counter_sources
  PortCounters counters;  // as read
  uint32_t over = 0;      // bit per PortCounter above its threshold; 0: counted, all below
};

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
  std::vector<LinkRateCount> link_rates;        // by fabric, then fastest rate first
  std::vector<UnknownDevice> unknown_devices;   // by ids
  std::vector<CounterSource> counter_sources;   // --counters inputs, in order
  std::vector<PlanSummary> plan_checks;         // --plan inputs, in order
  std::vector<CableEndHealth> cable_health;     // by fabric, link, end
  int aggregation_nodes = 0;         // SHARP ANs seen (and ignored as hosts)
  std::string group_name_regex;      // from the site config: names multi-switch units
  int max_level = 0;
  // Likely hosts of unresolved HCAs, from their ports (graph/hca_guesses.h): suggestions for the
  // admin, never used to place a host.
  HcaGuesses guesses;

  // The fabric node a graph vertex stands for.
  const FabricNode& node(Vertex v) const { return fabrics[graph[v].fabric].nodes[graph[v].node]; }
  int host_index(const std::string& name) const;  // -1 if absent
  // The hosts placed when Slurm's node list is not given: compute hosts with a group, in order.
  std::vector<std::string> compute_hosts() const;
};

// Throws InputError when an option cannot be applied (e.g. an invalid host regex).
Cluster build_cluster(std::vector<Fabric> fabrics, const ClusterOptions& options);

}  // namespace slurmtopo
