// The partition's nodes as `place` and `whatif` take them: names, and Weight= and usable
// CPUs given as one value for all or as 'HOSTLIST=VALUE,…'. Errors name the option.
#pragma once

#include <string>
#include <vector>

#include "simulate/scheduler/slurm_select.h"

namespace slurmtopo {

// The names (a repeated one counts once) with `weights` and `cpus` applied: "V" for every
// node or 'HOSTLIST=V,…' (others keep 1). Commas inside brackets belong to the hostlist; a
// part without '=' joins the next ("a,b=5" gives a and b the value 5).
std::vector<SlurmNode> slurm_nodes(const std::vector<std::string>& names, const std::string& weights,
                                   const std::string& cpus);

}  // namespace slurmtopo
