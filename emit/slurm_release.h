// The Slurm release a file or a prediction is for, as an admin names it: "YY.MM". What
// changes between releases is decided where it matters (gres.conf Cores= rules in
// emit/gres_conf.h, node selection in simulate/slurm_select.h); this is only the name.
#pragma once

#include <string>
#include <string_view>

namespace slurmtopo {

struct SlurmRelease {
  int year = 22, month = 5;
  auto operator<=>(const SlurmRelease&) const = default;
};
// Throws InputError("--slurm-version", 0, ...) unless "YY.MM" (e.g. 22.05, 24.11, 25.11).
SlurmRelease parse_slurm_release(std::string_view text);
std::string to_string(SlurmRelease v);

}  // namespace slurmtopo
