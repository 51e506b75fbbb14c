// Options that describe Slurm's nodes the way `place` and `whatif` both take them: hostlists,
// 'HOSTLIST=VALUE,…' assignments for Weight= and CPUs, whole numbers. Errors name the option.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/scheduler/scheduler.h"

namespace slurmtopo::cli {

std::vector<std::string> hostnames(const std::string& option, const std::string& expr);
uint64_t number(const std::string& option, const std::string& text, uint64_t min);
// The partition's nodes (duplicates once) with `weights` and `cpus` applied: "V" for every
// node or 'HOSTLIST=V,…' (others keep 1).
std::vector<SlurmNode> slurm_nodes(const std::vector<std::string>& names, const std::string& weights,
                                   const std::string& cpus);

}  // namespace slurmtopo::cli
