// graph/: one model of the cluster.
//   cluster.h         Cluster: the fabric graph (Boost.Graph), levels, leaves, groups, rails,
//                     anomalies; built from discover/'s values (cluster_inputs.h reads them)
//   grouping.h, rail_agreement.h, anomalies.h, host_names.h, switch_names.h, unit_names.h:
//                     the inferences, one rule each (docs/cluster-model.md)
//   slurm_tree.h      the tree Slurm's topology/tree plugin should see
//   node_join.h       GPUs → nearest NIC → rail → leaf
//   cluster_cables.h  the cables as a cabling plan names them; plan_check.h: a plan against them
//   finding_names.h   the hosts and switches a finding names
#pragma once

#include "graph/anomalies.h"
#include "graph/cluster.h"
#include "graph/cluster_cables.h"
#include "graph/cluster_inputs.h"
#include "graph/node_join.h"
#include "graph/slurm_tree.h"
