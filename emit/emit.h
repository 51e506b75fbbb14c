// emit/: what Slurm reads, planned and checked against Slurm's own rules before a write.
//   topology_plan.h   cluster → checked topology.conf (topology_conf.h renders, topology_check.h
//                     checks as slurmctld would, topology_diff.h says what changes)
//   gres_plan.h       node classes → checked gres.conf and NodeName lines (gres_lines.h,
//                     node_lines.h render, gres_check.h checks as slurmd would)
#pragma once

#include "emit/gres_check.h"
#include "emit/gres_lines.h"
#include "emit/gres_plan.h"
#include "emit/node_lines.h"
#include "emit/topology_check.h"
#include "emit/topology_conf.h"
#include "emit/topology_diff.h"
#include "emit/topology_plan.h"
