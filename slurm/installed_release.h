// The Slurm release installed where slurmtopo runs, as `scontrol --version` prints it
// ("slurm 22.05.8"): the default target of the files slurmtopo writes.
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

// "slurm 22.05.8" → 22.05; "slurm-wlm 24.11.5" too; nullopt for anything else.
std::optional<InstalledRelease> parse_scontrol_version(std::string_view printed);

// Runs `scontrol --version` (via PATH), else `slurmctld -V`, else `slurmd -V` (scontrol needs a
// configuration source even for --version); nullopt when none prints a release. `printed` is
// then "COMMAND: OUTPUT", e.g. "slurmctld -V: slurm-wlm 22.05.8".
std::optional<InstalledRelease> installed_slurm_release();

// The release the files are for: `requested` (--slurm-version) when given, else the installed
// one, else 22.05. `how` says which, for the file header: "--slurm-version 24.11",
// "scontrol --version: slurm 22.05.8", "no Slurm installed here, so 22.05".
struct TargetRelease {
  SlurmRelease release;
  std::string how;
};
TargetRelease target_release(const std::string& requested);

}  // namespace slurmtopo
