#include "discover/ibnetdiscover_noise.h"

#include "base/words.h"

namespace slurmtopo {
bool is_ibnetdiscover_diagnostic(std::string_view line) {
  if (line.starts_with("ibwarn") || line.starts_with("ibnetdisc") || line.starts_with("iberror"))
    return true;
  if (line.find("umad") != std::string_view::npos) return true;
  size_t c = line.find(".c:");
  return c != std::string_view::npos && c > 0 && first_word(line).size() > c;
}

bool is_ibnetdiscover_progress(std::string_view line) {
  if (!line.starts_with("DR path ") && !line.starts_with("Lid ")) return false;
  const size_t arrow = line.find(" -> ");
  if (arrow == std::string_view::npos) return false;
  const std::string_view after = line.substr(arrow + 4);
  return (after.starts_with("new ") || after.starts_with("known ")) && after.find(" portnum ") != std::string_view::npos;
}

}  // namespace slurmtopo
