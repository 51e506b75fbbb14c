// A gres.conf in place against what the nodes are: per node, per GPU in Slurm index order, the
// Cores= and Links= of the file against the exports' (what `emit gres` would write). slurmd's
// own rules (emit/gres_check.h) cannot see a GPU bound to the wrong socket — Cores=0-13 for a
// GPU local to cores 42-55 is well-formed — but jobs then run on the far socket, and with
// AutoDetect=nvml slurmd ignores a GPU whose configured Cores/Links differ from NVML's (the
// node drains: "gpu count reported lower than configured").
#pragma once

#include <vector>

#include "emit/gres_lines.h"
#include "slurm/gres_conf.h"

namespace slurmtopo {

// Errors: a GPU's Cores= that misses some of the GPU's own cores (or of what the release's rule
// widens them to); Links= that differ from the exports' NVLink counts. Warnings: a Cores= that
// holds them all and more (`Cores=0-111` for every GPU: slurmd -G of 22.05, 24.11 and 26.05
// takes it, and so does slurmctld where it passes the release's socket rule, which
// check_gres applies), no Cores= (every core allowed), no Links= where the exports have
// NVLink counts. Nodes of one class with the same
// lines are reported once, by hostlist; nodes the file has no gpu line for are left to
// check_gres (a count mismatch).
std::vector<GresIssue> compare_gres_with_nodes(const ParsedGres& gres, const std::vector<ClassGres>& classes,
                                               std::vector<GresIssue>& warnings);

}  // namespace slurmtopo
