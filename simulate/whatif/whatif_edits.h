// What-if edits to a cluster: drained nodes, a switch taken out of service, cables removed
// (by name, or every cable the port counters say is bad), spines added, another topology.conf.
// The fabric edits make a new fabric (and so new routes, new cable capacities and the
// topology.conf slurmtopo would emit for it); drains and the alternative topology change only
// what Slurm may use and how it places.
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

// "SWITCH/PORT" (the cable on that port) or "SWITCH_A,SWITCH_B" (one cable between them, the
// lowest port of A), switch names as `slurmtopo inspect` prints them.
struct CableRef {
  std::string a;
  int port = 0;  // 0: the cable to `b`
  std::string b;
};
CableRef parse_cable_ref(const std::string& text);  // throws InputError("--remove-cable", ...)

// A cable `--drain-errored` removes: an end of it counts cable-errors (symbol errors, link
// recoveries, link downs, receive errors, local link integrity, buffer overruns) over the
// site's thresholds. Found by one of its ends, (GUID, port), as --remove-cable SWITCH/PORT is.
struct ErroredCable {
  int fabric = 0;
  uint64_t guid = 0;
  int port = 0;
  std::string cable;  // switch end first, as findings name it: "leaf03[22] - dgx017 mlx5_2"
  std::string why;    // the counters over, each at its end: "SymbolErrorCounter 500 at leaf03[22]"
};

struct WhatifEdits {
  std::vector<std::string> drain;           // hosts (expanded hostlist)
  std::vector<std::string> drain_switches;  // every cable of the switch removed
  std::vector<CableRef> remove_cables;
  std::vector<ErroredCable> errored_cables;  // --drain-errored (simulate/whatif/errored_cables.h)
  int add_spines = 0;                       // top-level switches, each like an existing one
  std::string topology_file;                // another topology.conf for Slurm; "" = the emitted one

  bool changes_fabric() const {
    return !drain_switches.empty() || !remove_cables.empty() || !errored_cables.empty() || add_spines > 0;
  }
  bool empty() const { return drain.empty() && !changes_fabric() && topology_file.empty(); }
};

// The edits in words, one per line, for the report header and the shard fingerprint.
std::vector<std::string> describe(const WhatifEdits& edits);

struct EditedFabrics {
  std::vector<Fabric> fabrics;
  std::vector<std::string> notes;  // what the edit had to assume (ports beyond a switch's count)
  // Hosts that lost the cable of one of their HCAs: a GPU job there would miss a rail, so
  // they count as down (an admin drains them with the switch).
  std::vector<std::string> hosts_cut;
};

// The cluster's fabrics with the fabric edits applied; nodes left without any cable are
// dropped, as a sweep would not see them. Throws InputError naming the option for a switch or
// cable the cluster does not have. An errored cable another edit already removed (its switch
// drained, the same cable named) is removed once, without complaint.
EditedFabrics edit_fabrics(const Cluster& cluster, const WhatifEdits& edits);

}  // namespace slurmtopo
