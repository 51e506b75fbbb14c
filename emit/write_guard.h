// The last check before a file Slurm reads replaces the one in place: a new file that drops
// more than 5 % of the nodes the current one lists — a sweep that missed a leaf, a --nodes-dir
// half collected — is refused unless forced, naming what would be lost. One rule for every
// file slurmtopo writes for Slurm (topology.conf, gres.conf, NodeName lines), and for a
// topology that would leave Slurm's own nodes under no switch.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace slurmtopo {

inline constexpr double kMaxNodeDrop = 0.05;

// Why the new file must not replace the current one without --allow-missing, or nullopt. `dropped`:
// nodes the current file has and the new one lacks; `check` says what to check ("the sweep").
std::optional<std::string> shrink_refusal(size_t current_nodes, const std::vector<std::string>& dropped,
                                          const std::string& check);

// The same rule for Slurm's own nodes: a topology that leaves more than 5 % of the nodes Slurm
// has (`slurm_nodes`, from `source`) under no switch is refused unless forced, since the tree
// plugin can never allocate those nodes. `missing`: Slurm's nodes the topology lacks.
std::optional<std::string> unplaced_refusal(size_t slurm_nodes, const std::vector<std::string>& missing,
                                            const std::string& source);

}  // namespace slurmtopo
