// The nodes of a cluster, described by files: one `<hostname>.xml` (hwloc export) or
// `<hostname>.json` (NodeInventory) per host in a directory, and/or `HOSTLIST=FILE` for hosts
// known to be identical. Hosts with equal hardware_signature() form a node class: one
// NodeName= line and one set of gres.conf lines.
#pragma once

#include <string>
#include <vector>

#include "discover/node_inventory.h"

namespace slurmtopo {

struct NodeSources {
  std::string nodes_dir;                     // --nodes-dir DIR
  std::vector<std::string> node_classes;     // --node-class 'gpu[001-064]=dgx.xml', repeatable
  // Hosts that must be described (--nodes, a collect run's list, the hosts simulated). When
  // given, they are the set: files of other hosts (in the directory, or --node-class hosts
  // outside the list) are not loaded. A host in this list without a file is an InputError —
  // a gres.conf silently missing a node is worse than none — unless allow_missing, which
  // makes it a warning and fills `missing`.
  std::vector<std::string> expected_hosts;
  bool allow_missing = false;
  std::string allow_missing_option = "--allow-missing";  // the caller's flag for allow_missing, named in the error
  unsigned threads = 0;                      // parallel loads (XML: child processes); 0 = one per hardware thread
};

struct NodeClass {
  std::string signature;
  std::vector<std::string> hosts;            // natural (Slurm node table) order
  std::string hostlist;                      // the same, compressed: "gpu[001-064]"
  size_t representative = 0;                 // index in NodeSet::nodes of hosts.front()
};

struct NodeSet {
  std::vector<NodeInventory> nodes;          // natural hostname order
  std::vector<NodeClass> classes;            // in order of their first host
  std::vector<std::string> missing;          // expected hosts without a file (allow_missing)
  // Node warnings merged across hosts ("gpu[001-064]: <warning>"), then the set's own.
  std::vector<std::string> warnings;
};

// InputError for: an unreadable directory or file, a bad XML/JSON (from the loaders), a file
// name that is not a Slurm node name, a host described twice (X.xml and X.json, or a file and
// a --node-class), a malformed --node-class, missing expected hosts (see above).
NodeSet load_node_set(const NodeSources& sources);

// The same, for sources given on a command line: InputError when there are none (neither
// --nodes-dir nor --node-class), and `nodes` (a hostlist, may be empty) becomes the hosts that
// must be described, and the only ones loaded.
NodeSet load_node_set(NodeSources sources, const std::string& nodes);

// One node from a file, by extension (.xml: hwloc export, .json: NodeInventory); `hostname`
// replaces whatever the file says.
// Forks for an .xml (see load_node_xml): the caller must be the process's only thread.
NodeInventory load_node_file(const std::string& path, const std::string& hostname);

// Groups by hardware_signature(); classes ordered by their first host.
std::vector<NodeClass> group_node_classes(const std::vector<NodeInventory>& nodes);

}  // namespace slurmtopo
