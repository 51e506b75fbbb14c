// emit/: what Slurm reads, planned and checked against Slurm's own rules before a write.
//   topology_plan.h   cluster (+ NVLink domains) → a checked topology.conf (tree or block) or
//                     topology.yaml for the target release (topology_conf.h, block_conf.h render,
//                     topology_check.h, block_check.h check as slurmctld would, block_plan.h
//                     chooses blocks and BlockSizes, topology_diff.h says what changes)
//   gres_plan.h       node classes → checked gres.conf and NodeName lines (gres_lines.h,
//                     node_lines.h render, gres_check.h checks as slurmd would, gres_compare.h
//                     checks a file in place against the nodes: Cores=, Links=)
//   topology_emit.h, gres_emit.h   the emit commands as one call each: plan, check, diff, write
//   nccl_topo.h, nccl_topo_emit.h   NCCL's topology XML per node class (NCCL_TOPO_FILE)
//   apply_plan.h      apply: emit, check against the running slurmctld, replace, reconfigure,
//                     verify, roll back (slurm_control.h: scontrol behind an interface;
//                     node_file.h: the included NodeName file --what nodes owns)
//   write_guard.h     the one rule against a new file silently dropping nodes (5 %)
#pragma once

#include "emit/apply_plan.h"
#include "emit/block_check.h"
#include "emit/block_conf.h"
#include "emit/block_plan.h"
#include "emit/gres_check.h"
#include "emit/gres_compare.h"
#include "emit/gres_emit.h"
#include "emit/gres_lines.h"
#include "emit/gres_plan.h"
#include "emit/nccl_topo.h"
#include "emit/nccl_topo_emit.h"
#include "emit/node_file.h"
#include "emit/node_lines.h"
#include "emit/slurm_control.h"
#include "emit/topology_check.h"
#include "emit/topology_conf.h"
#include "emit/topology_diff.h"
#include "emit/topology_emit.h"
#include "emit/topology_plan.h"
#include "emit/write_guard.h"
