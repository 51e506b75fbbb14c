// simulate/measured/: what NCCL really did, against what the model predicts (docs/simulator.md,
// "Measured against predicted").
//   measured_run.h      nccl-tests runs joined with their NCCL logs by HOST:PID
//   measured_causes.h   the evidence of a shortfall: NCCL's log, node findings, cables, rails
//   measured_compare.h  each run against the prediction on its hosts, and the likely cause
//   measured_findings.h performance.measured's findings of a set of runs
//   measured_simulation.h  `simulate --measured` and the report's section as one call
//   measured_evidence.h what `inspect --measured` shows: the runs as read, their log weighed
//   probe_plan.h        `probe`: the sbatch script whose steps measure every leaf group, pair and rail
//   probe_manifest.h    its placements in DIR/probe.json, read back by the report
//   probe_coverage.h    which of them were measured, cut short, failed or never ran
#pragma once

#include "simulate/measured/measured_causes.h"
#include "simulate/measured/measured_compare.h"
#include "simulate/measured/measured_evidence.h"
#include "simulate/measured/measured_findings.h"
#include "simulate/measured/measured_run.h"
#include "simulate/measured/measured_simulation.h"
#include "simulate/measured/probe_coverage.h"
#include "simulate/measured/probe_manifest.h"
#include "simulate/measured/probe_plan.h"
