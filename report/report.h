// report/: every rendering for a person or a program, made from what the other folders
// computed (it computes nothing of its own).
//   inspect.h           what slurmtopo sees in the fabric (text, JSON)
//   node_join_report.h  inspect --nodes-dir: every GPU's way out of the node
//   whatif_report.h     whatif tables and JSON, from a run's records
#pragma once

#include "report/inspect.h"
#include "report/node_join_report.h"
#include "report/whatif_report.h"
