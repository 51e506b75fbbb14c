// The Slurm release installed where slurmtopo runs, as `scontrol --version` prints it
// ("slurm 22.05.8"), and the one resolution every command makes of the release it works for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "slurm/release.h"

namespace slurmtopo {

struct InstalledRelease {
  SlurmRelease release;
  std::string printed;  // what was printed, e.g. "slurm 22.05.8"
};

// "slurm 22.05.8" → 22.05; "slurm-wlm 24.11.5" too; nullopt for anything else. A release
// slurmtopo does not know is returned as printed (target_release refuses it by name).
std::optional<InstalledRelease> parse_scontrol_version(std::string_view printed);

// Runs `scontrol --version`, else `slurmctld -V`, else `slurmd -V` (scontrol needs a
// configuration source even for --version; the daemons print theirs without one), each found
// in `search_path` (PATH's form) and started directly, with no shell; nullopt when none prints a
// release. `printed` is then "COMMAND: OUTPUT", e.g. "slurmctld -V: slurm-wlm 22.05.8".
std::optional<InstalledRelease> installed_slurm_release(std::string_view search_path);

// The release a command works for, the same way for every command and once per run (cli/):
// `requested` (--slurm-version) when given; else the installed one (searched in $PATH); else
// 22.05, the documented default, with `defaulted` set so the command says so. Throws
// InputError for a release outside known_releases(), wherever it came from.
TargetRelease target_release(const std::string& requested);

}  // namespace slurmtopo
