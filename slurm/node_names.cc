#include "slurm/node_names.h"

#include <cctype>

namespace slurmtopo {

bool trailing_number_too_large(std::string_view name) {
  size_t start = name.size();
  while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
  std::string_view digits = name.substr(start);
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  constexpr std::string_view kMax = "18446744073709551615";
  return digits.size() > kMax.size() || (digits.size() == kMax.size() && digits > kMax);
}

bool valid_slurm_node_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      return false;
  return name.front() != '-' && name.front() != '.' && !trailing_number_too_large(name);
}

}  // namespace slurmtopo
