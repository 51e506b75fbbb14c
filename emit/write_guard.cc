#include "emit/write_guard.h"

#include "slurm/hostlist.h"

namespace slurmtopo {

std::optional<std::string> shrink_refusal(size_t current_nodes, const std::vector<std::string>& dropped,
                                          const std::string& check) {
  if (current_nodes == 0) return std::nullopt;
  if (static_cast<double>(dropped.size()) <= kMaxNodeDrop * static_cast<double>(current_nodes)) return std::nullopt;
  std::string list = compress_hostlist(dropped);
  if (list.size() > 300) list = list.substr(0, 300) + "…";
  return "the new file drops " + std::to_string(dropped.size()) + " of the " + std::to_string(current_nodes) +
         " nodes in the current one (more than " + std::to_string(static_cast<int>(kMaxNodeDrop * 100)) + " %: " + list +
         "): check " + check + ", or use --allow-missing";
}

std::optional<std::string> unplaced_refusal(size_t slurm_nodes, const std::vector<std::string>& missing,
                                            const std::string& source) {
  if (slurm_nodes == 0) return std::nullopt;
  if (static_cast<double>(missing.size()) <= kMaxNodeDrop * static_cast<double>(slurm_nodes)) return std::nullopt;
  std::string list = compress_hostlist(missing);
  if (list.size() > 300) list = list.substr(0, 300) + "…";
  return std::to_string(missing.size()) + " of " + source + "'s " + std::to_string(slurm_nodes) +
         " nodes would be under no switch (more than " + std::to_string(static_cast<int>(kMaxNodeDrop * 100)) +
         " %: " + list + "), and the tree plugin could never allocate them: name their HCAs (see the warning above), "
         "check the sweep, or use --allow-missing";
}

}  // namespace slurmtopo
