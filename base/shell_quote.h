// A word as a POSIX shell reads it back unchanged: the scripts and commands slurmtopo writes
// or runs (collect's srun script, whatif's sbatch script, scontrol with SLURM_CONF=) quote alike.
#pragma once

#include <string>

namespace slurmtopo {

// abc -> abc, a b -> 'a b', it's -> 'it'\''s', gpu[1-4] -> 'gpu[1-4]' (brackets are glob
// characters), "" -> ''.
std::string shell_quote(const std::string& word);

}  // namespace slurmtopo
