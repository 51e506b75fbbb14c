// Reads topology.conf the way slurmctld's topology/tree plugin does, keeping line numbers,
// so the same checks run on what we are about to write and on a file already in place.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

struct TopologyLine {
  int line = 0;
  std::string name;
  bool has_nodes = false, has_switches = false;
  std::string nodes_expr, switches_expr;      // as written
  std::vector<std::string> nodes, switches;  // expanded
};

struct TopologyIssue {
  int line = 0;  // 0: the file as a whole
  std::string message;
};

struct ParsedTopology {
  std::string file;
  std::vector<TopologyLine> switches;
  std::vector<TopologyIssue> errors;  // what slurmctld would refuse (fatal) to load
};

ParsedTopology parse_topology_conf(std::string_view text, const std::string& file);

// Every name a Nodes= list gives, with its switch and its place among all listings in file
// order, sorted by name and then that place: the first of each name is where the file first
// puts the node, any after it are repeats. Views into `p`, which must outlive them.
struct NodeListing {
  std::string_view node;
  const TopologyLine* leaf;
  size_t order;
};
std::vector<NodeListing> node_listings(const ParsedTopology& p);

// Every node below each switch, in p.switches order: its own Nodes= and those of every switch
// below it (as `scontrol show topology` lists them). A child named twice counts once; a cycle
// stops at the switch already being walked; an unknown child adds nothing.
std::vector<std::set<std::string>> nodes_below(const ParsedTopology& p);

}  // namespace slurmtopo
