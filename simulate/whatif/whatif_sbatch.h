// A large what-if run on the cluster itself: a bash script that submits the run as a Slurm job
// array of N shards (`whatif --shard $SLURM_ARRAY_TASK_ID/N`) and a merge job that waits for
// them (afterok), so the merged result is byte-identical to one run (whatif_shards.h).
#pragma once

#include <string>

#include "simulate/whatif/whatif_plan.h"

namespace slurmtopo {

// The run's own arguments again, paths made absolute so the tasks run from anywhere; `exe` is
// the slurmtopo the tasks run; `json` picks the merged output's form. Throws InputError for
// arguments the run itself would refuse first (no --fabric, no --profile, --shard as well).
std::string whatif_sbatch_script(const WhatifArguments& args, int shards, bool json, const std::string& exe);

}  // namespace slurmtopo
