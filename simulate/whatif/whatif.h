// simulate/whatif/: what changes if the cluster or the policy changes (docs/whatif.md).
//   whatif_case.h       one configuration: cluster, emitted topology, Slurm's placement, down nodes
//   whatif_plan.h       a what-if as asked: its request, the before/after cases, the run
//   whatif_sbatch.h     the script that runs a sharded what-if as a Slurm job array
//   place_plan.h        `place` as one call (a fabric is placed through emit/'s topology)
//   whatif_edits.h      drains, switches out, cables removed, spines added, another topology.conf
//   whatif_policies.h   Slurm, no topology, best and random placement of one job
//   workload_replay.h   a workload replayed FCFS + EASY backfill through a policy, with costs
//   swf_workload.h, synthetic_workload.h   workloads from a trace or a seed
//   whatif_run.h        a run as shardable units of work, each one JSON record
//   whatif_shards.h     shards of a run and their merge, byte-identical to one run
#pragma once

#include "simulate/whatif/best_placement.h"
#include "simulate/whatif/place_plan.h"
#include "simulate/whatif/swf_workload.h"
#include "simulate/whatif/synthetic_workload.h"
#include "simulate/whatif/whatif_case.h"
#include "simulate/whatif/whatif_edits.h"
#include "simulate/whatif/whatif_plan.h"
#include "simulate/whatif/whatif_policies.h"
#include "simulate/whatif/whatif_run.h"
#include "simulate/whatif/whatif_sbatch.h"
#include "simulate/whatif/whatif_shards.h"
#include "simulate/whatif/workload_replay.h"
