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
         "): check " + check + ", or use --force";
}

}  // namespace slurmtopo
