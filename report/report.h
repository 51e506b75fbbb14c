// report/: every rendering for a person or a program, made from what the other folders
// computed (it computes nothing of its own).
//   apply_report.h      apply: the change, each step, the exit; the node_exporter textfile
//   counters_textfile.h discover fabric/counters --textfile: port counters per cable end for node_exporter
//   prometheus_text.h   the text exposition format's escaping
//   emit_report.h       emit topology/gres/nodes/nccl-topo: the file, diff, findings, what was written
//   inspect.h           what slurmtopo sees in the fabric (text, JSON)
//   node_classes_report.h  discover classes: classes, GPUs, path classes to every NIC
//   node_join_report.h  inspect --nodes-dir: every GPU's way out of the node
//   place_report.h      place: the hostlist and, with --explain, why
//   sweep_report.h      discover fabric: progress on a terminal, what a partial sweep missed
//   simulate_report.h   simulate tables and JSON
//   measured_report.h   simulate --measured: measured against predicted, the causes
//   measured_evidence_report.h  inspect --measured: the runs as read, what NCCL's log says
//   whatif_report.h     whatif tables and JSON, from a run's records
//   commission.h        `report`: the commissioning report (HTML, JSON, Markdown) and its verdicts
#pragma once

#include "report/apply_report.h"
#include "report/commission.h"
#include "report/counters_textfile.h"
#include "report/emit_report.h"
#include "report/inspect.h"
#include "report/node_classes_report.h"
#include "report/node_join_report.h"
#include "report/place_report.h"
#include "report/measured_evidence_report.h"
#include "report/measured_report.h"
#include "report/simulate_report.h"
#include "report/sweep_report.h"
#include "report/whatif_report.h"
