#include "slurm/topology_file.h"

namespace slurmtopo {

SlurmTopologyFile parse_topology_file(std::string_view text, const std::string& file) {
  SlurmTopologyFile out;
  if (is_block_topology(text)) out.block = parse_block_topology(text, file);
  else out.tree = parse_topology_conf(text, file);
  return out;
}

}  // namespace slurmtopo
