// The last check before a file Slurm reads replaces the one in place: a new file that drops
// more than 5 % of the nodes the current one lists — a sweep that missed a leaf, a --nodes-dir
// half collected — is refused unless forced, naming what would be lost. One rule for every
// file slurmtopo writes for Slurm (topology.conf, gres.conf, NodeName lines).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace slurmtopo {

inline constexpr double kMaxNodeDrop = 0.05;

// Why the new file must not replace the current one without --force, or nullopt. `dropped`:
// nodes the current file has and the new one lacks; `check` says what to check ("the sweep").
std::optional<std::string> shrink_refusal(size_t current_nodes, const std::vector<std::string>& dropped,
                                          const std::string& check);

}  // namespace slurmtopo
