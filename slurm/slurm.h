// slurm/: Slurm's language, as slurmctld and slurmd read it.
//   hostlist.h        hostlist expressions, expanded and compressed as scontrol does
//   node_names.h      what Slurm accepts as a node name
//   config_lines.h    the line rules every Slurm config file shares (comments, continuations)
//   slurm_conf.h      slurm.conf's NodeName lines, following Include
//   ranges.h          index ranges as Slurm spells them ("0-13,28-41")
//   gres_conf.h       gres.conf and NodeName= attributes as slurmd reads them
//   topology_conf.h   topology.conf for topology/tree
//   block_topology.h  topology.conf for topology/block (BlockName=, BlockSizes=)
//   topology_yaml.h   topology.yaml (25.05+): several tree/block/flat topologies
//   topology_file.h   any of them, recognised by content
//   release.h         releases (YY.MM) and every rule known to differ between them
//   installed_release.h  the release `scontrol --version` reports, the default target
//   time_string.h     Slurm's time strings
#pragma once

#include "slurm/block_topology.h"
#include "slurm/config_lines.h"
#include "slurm/gres_conf.h"
#include "slurm/hostlist.h"
#include "slurm/installed_release.h"
#include "slurm/node_names.h"
#include "slurm/ranges.h"
#include "slurm/release.h"
#include "slurm/slurm_conf.h"
#include "slurm/time_string.h"
#include "slurm/topology_conf.h"
#include "slurm/topology_file.h"
#include "slurm/topology_yaml.h"
