// A word as a POSIX shell reads it back unchanged: the scripts and commands slurmtopo writes
// or runs (collect's srun script, whatif's sbatch script, scontrol with SLURM_CONF=) quote alike.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

// abc -> abc, a b -> 'a b', it's -> 'it'\''s', gpu[1-4] -> 'gpu[1-4]' (brackets are glob
// characters), "" -> ''.
std::string shell_quote(const std::string& word);

// A command line as one shell line: each word shell_quote'd, joined by one blank.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace slurmtopo
