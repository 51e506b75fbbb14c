#include "slurm/topology_file.h"

#include "base/input_error.h"
#include "slurm/topology_yaml.h"

namespace slurmtopo {

SlurmTopologyFile parse_topology_file(std::string_view text, const std::string& file) {
  SlurmTopologyFile out;
  if (is_topology_yaml(text)) {
    const TopologyYaml yaml = parse_topology_yaml(text, file);
    const YamlTopology* t = yaml.cluster_default();
    if (!t) throw InputError(file, 0, "several topologies and none has cluster_default: true");
    out.topology = t->name;
    if (t->kind == YamlTopology::Kind::Tree) out.tree = t->tree;
    if (t->kind == YamlTopology::Kind::Block) out.block = t->block;
  } else if (is_block_topology(text)) {
    out.block = parse_block_topology(text, file);
  } else {
    out.tree = parse_topology_conf(text, file);
  }
  return out;
}

}  // namespace slurmtopo
