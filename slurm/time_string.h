// Slurm's time strings (`--time`, `--switches=N@TIME`, max_switch_wait): what time_str2secs
// reads.
#pragma once

#include <string>

namespace slurmtopo {

// "min", "min:sec", "hr:min:sec", "days-hr", "days-hr:min", "days-hr:min:sec" → seconds.
// Throws InputError(option, 0, ...) naming what was expected.
int slurm_time_seconds(const std::string& option, const std::string& text);

}  // namespace slurmtopo
