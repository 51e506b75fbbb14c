// topology.yaml (25.05+): several named topologies, one of them cluster_default, each a tree
// (switches with children or nodes), a block topology (block_sizes, blocks) or flat; partitions
// choose one with Topology=NAME. Read strictly — slurmctld ignores unknown keys silently (a
// typo like `nodez:` drops a switch's nodes) and a node listed in two blocks; we refuse both
// here or in emit/block_check.h — and written in the layout of Slurm's own examples.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "slurm/block_topology.h"
#include "slurm/topology_conf.h"

namespace slurmtopo {

struct YamlTopology {
  enum class Kind { Tree, Block, Flat };
  std::string name;
  int line = 0;
  bool cluster_default = false;
  Kind kind = Kind::Flat;
  ParsedTopology tree;  // Kind::Tree: switches, line numbers of their `switch:` keys
  BlockTopology block;  // Kind::Block
};
const char* to_string(YamlTopology::Kind kind);

struct TopologyYaml {
  std::string file;
  std::vector<YamlTopology> topologies;  // file order
  // The cluster_default entry; the only one when a single topology has no cluster_default.
  const YamlTopology* cluster_default() const;
};

// True when the text is a YAML list of `topology:` entries rather than Key=Value lines.
bool is_topology_yaml(std::string_view text);

// Throws InputError(file, line, ...) for a YAML syntax error, an unknown key, an entry without
// `topology:` or with none or several of tree/block/flat, a switch without `switch:` or with
// both `children` and `nodes`, an unparsable hostlist, duplicate topology names, or more than
// one cluster_default.
TopologyYaml parse_topology_yaml(std::string_view text, const std::string& file);

// `comments` become `# ` lines above the list. Hostlists are plain scalars where YAML allows,
// else double-quoted; same input, same bytes.
std::string render_topology_yaml(const TopologyYaml& yaml, const std::vector<std::string>& comments);

}  // namespace slurmtopo
