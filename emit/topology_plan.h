// From a cluster model (and NVLink domains) to a checked topology file, in any form slurmctld
// reads (emit/topology_emit.h writes it, behind the guard against silently losing nodes):
//   --format conf --plugin tree    topology.conf SwitchName= lines (every release)
//   --format conf --plugin block   topology.conf BlockName= lines + BlockSizes= (23.11+; 24.05+)
//   --format yaml                  topology.yaml (25.05+): a `tree` topology from the
//                                  InfiniBand fabric, a `block` one (NVLink domains, else the
//                                  fabric's leaf groups) and `flat`; the --plugin one is
//                                  cluster_default, partitions choose another with Topology=.
// A release that cannot read the requested form is an InputError naming the release that
// added it; every form is parsed back and checked as slurmctld would before it is returned.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "discover/nvlink_domains.h"
#include "emit/block_plan.h"
#include "emit/topology_check.h"
#include "emit/topology_diff.h"
#include "graph/cluster.h"
#include "graph/slurm_tree.h"
#include "slurm/release.h"

namespace slurmtopo {

enum class TopologyFormat { Conf, Yaml };
enum class TopologyPlugin { Tree, Block };
TopologyFormat parse_topology_format(const std::string& text);  // "conf" | "yaml"; InputError("--format")
TopologyPlugin parse_topology_plugin(const std::string& text);  // "tree" | "block"; InputError("--plugin")
// "18,36,72", read as a BlockSizes= value is (slurm/block_topology.h block_sizes_of); whether
// they are valid levels is check_blocks' question. InputError("--block-sizes") otherwise.
std::vector<int> parse_block_sizes(const std::string& text);

struct TopologyRequest {
  std::optional<std::vector<std::string>> slurm_nodes;  // --nodes / --slurm-conf
  std::string command;                                  // for the header comment
  TopologyFormat format = TopologyFormat::Conf;
  TopologyPlugin plugin = TopologyPlugin::Tree;
  SlurmRelease release;                                 // the files are for this release
  std::string release_how;                              // how it was chosen; "" → no header line
  std::optional<NvlinkDomains> domains;                 // --nvlink-domains
  // --block-sizes: the admin's BlockSizes instead of the ones chosen from the blocks; checked
  // by the same rules. Needs a block topology (--plugin block, or a topology.yaml).
  std::optional<std::vector<int>> block_sizes;
};

// The names of the topologies in a topology.yaml slurmtopo writes.
inline constexpr const char* kTreeTopology = "tree";
inline constexpr const char* kBlockTopology = "block";
inline constexpr const char* kFlatTopology = "flat";

struct TopologyPlan {
  SlurmTree tree;                                // from the fabric (empty without one)
  std::optional<BlockPlan> blocks;               // --plugin block, or a yaml's block topology
  std::string file_name;                         // "topology.conf" or "topology.yaml"
  std::string text;
  std::string summary;                           // "12 switches", "8 blocks", "3 topologies: ..."
  TopologyCheck check;                           // run on `text`, parsed back
  std::optional<ParsedTopology> parsed;          // `text` parsed back, as checked (tree form only)
  std::vector<std::string> in_slurm_not_fabric;  // Slurm nodes the fabric does not show
  std::vector<std::string> in_fabric_not_slurm;  // fabric hosts Slurm does not know
  // Without a Slurm node list: hosts not built like compute hosts (graph/cluster.h HostRole),
  // left out of the file.
  std::vector<std::string> left_out;
};

// `cluster` may be empty (no fabric) when `request.domains` gives the blocks. Throws InputError
// for a form the release cannot read, a tree without a fabric, a domains file naming a host
// that is not a node, and --nvlink-domains for a tree topology.conf (it would be ignored).
TopologyPlan plan_topology(const Cluster& cluster, const TopologyRequest& request);

}  // namespace slurmtopo
