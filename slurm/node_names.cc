#include "slurm/node_names.h"

#include <cctype>

namespace slurmtopo {

bool valid_slurm_node_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      return false;
  return name.front() != '-' && name.front() != '.';
}

}  // namespace slurmtopo
