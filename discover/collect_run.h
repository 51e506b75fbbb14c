// Running the srun step collect_plan builds, and what came back: which nodes delivered no
// export.
#pragma once

#include <string>
#include <vector>

#include "discover/collect_plan.h"

namespace slurmtopo {

struct CollectOutcome {
  int srun_exit = 0;                  // srun's exit code (128 + signal when killed)
  int container_exit = 0;             // the container step's (Pyxis), when there is one
  size_t delivered = 0;               // exports found in the output directory
  std::vector<std::string> missing;   // nodes without one
  size_t fabric_reports = 0;          // <node>.fabric.csv files (nodes with nvidia-smi)
  size_t probes = 0, container_probes = 0;  // <node>.probe, <node>.container.probe files
};

// Creates the output directory, runs srun without a shell (the argv is exactly what --dry-run
// prints) and looks for every expected file. Throws InputError when the directory cannot be
// made or srun cannot be started.
CollectOutcome run_collect(const CollectPlan& plan);

// What `collect` says once the step ended: on stdout how many exports (and NVLink fabric
// reports) arrived, on stderr the nodes without an export, and the exit code: 3
// (exit_code::kAttention) when a node delivered nothing (the directory is incomplete whatever
// srun said) or srun failed, else 0.
struct CollectReport {
  std::string out, err;
  int exit_code = 0;
};
CollectReport collect_report(const CollectPlan& plan, const CollectOutcome& outcome);

// What `collect --dry-run` prints: the srun command, and the same step as an sbatch script.
std::string collect_dry_run_text(const CollectPlan& plan);

}  // namespace slurmtopo
