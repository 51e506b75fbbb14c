// What Slurm accepts as a node name.
#pragma once

#include <string_view>

namespace slurmtopo {

// A name Slurm can use as a node name (and that its hostlist parser reads back as itself):
// letters, digits, '-', '_' and '.', not starting with '-' or '.', at most 64 characters.
bool valid_slurm_node_name(std::string_view name);

}  // namespace slurmtopo
