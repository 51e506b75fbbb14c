// simulate/scheduler/: where Slurm itself puts jobs.
//   slurm_select.h        slurmctld's select/cons_tres node selection: flat, tree (with
//                         dragonfly and TopoOptional) and block, per release (docs/placement.md)
//   slurm_nodes.h         the partition's nodes with Weight= and CPUs, as the options give them
//   leaf_tree.h           a topology.conf's leaves and groups over slurmctld's node table
//   backfill_scheduler.h  FCFS with EASY backfill for whole-node jobs, placing through a policy
//   workload.h            jobs as the scheduler sees them
#pragma once

#include "simulate/scheduler/backfill_scheduler.h"
#include "simulate/scheduler/leaf_tree.h"
#include "simulate/scheduler/slurm_nodes.h"
#include "simulate/scheduler/slurm_select.h"
#include "simulate/scheduler/workload.h"
