// The partition's nodes as `place` and `whatif` take them: names, and Weight= and usable
// CPUs given as one value for all or as 'HOSTLIST=VALUE,…'. Errors name the option.
#pragma once

#include <string>
#include <vector>

#include "simulate/scheduler/slurm_select.h"
#include "slurm/slurm_conf.h"

namespace slurmtopo {

// The names (a repeated one counts once) with `weights` and `cpus` applied: "V" for every
// node or 'HOSTLIST=V,…' (others keep 1). Commas inside brackets belong to the hostlist; a
// part without '=' joins the next ("a,b=5" gives a and b the value 5).
std::vector<SlurmNode> slurm_nodes(const std::vector<std::string>& names, const std::string& weights,
                                   const std::string& cpus);

// The partition from a slurm.conf (--slurm-conf), as slurmctld reads it: every NodeName line's
// nodes with its Weight= and CPUs= (a NodeName=DEFAULT line sets them for the lines after it),
// or only `partition` (--nodes) where given, each of which must be in the file. `weights` and
// `cpus` (--weights, --cpus), where given, override the file's values as in slurm_nodes().
std::vector<SlurmNode> slurm_conf_nodes(const SlurmConf& conf, const std::string& conf_file,
                                        const std::vector<std::string>& partition, const std::string& weights,
                                        const std::string& cpus);

}  // namespace slurmtopo
