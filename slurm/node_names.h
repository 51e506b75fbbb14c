// What Slurm accepts as a node name.
#pragma once

#include <string_view>

namespace slurmtopo {

// A name Slurm can use as a node name (and that its hostlist parser reads back as itself):
// letters, digits, '-', '_' and '.', not starting with '-' or '.', at most 64 characters, and
// not ending in a number above 18446744073709551615 (a hostlist keeps it in 64 bits).
bool valid_slurm_node_name(std::string_view name);

// True when `name` ends in a number a hostlist cannot hold (above 18446744073709551615,
// leading zeros aside): "cn99999999999999999999".
bool trailing_number_too_large(std::string_view name);

}  // namespace slurmtopo
