// From node classes to a checked gres.conf and slurm.conf node lines: plan → check → write,
// as emit/topology_plan.h does for topology.conf. Both texts are parsed back and checked
// together, since most of slurmd's rules are about the two agreeing.
#pragma once

#include <string>
#include <vector>

#include "discover/node_set.h"
#include "emit/gres_check.h"
#include "emit/gres_lines.h"
#include "emit/node_lines.h"

namespace slurmtopo {

struct GresRequest {
  SlurmRelease version;
  std::string release_line;  // release_line() of the TargetRelease `version` came from, for headers
  std::string command;   // for the header comments
  std::string dev_dir;   // see gres_for_class()
  std::vector<PartitionTopology> partitions = {};  // PartitionName= lines after the NodeName lines
};

struct GresPlan {
  std::vector<ClassGres> classes;     // NodeSet::classes order
  std::vector<NodeLine> node_lines;   // the same order
  std::string gres_text;              // gres.conf
  std::string nodes_text;             // slurm.conf fragment: GresTypes=gpu and NodeName= lines
  GresCheck check;                    // both texts, parsed back
  std::vector<std::string> notes;     // "<hostlist>: <what was adjusted>"
};

// Classes without GPUs get a NodeName line and no gres.conf lines.
GresPlan plan_gres(const NodeSet& nodes, const GresRequest& request);

// The check alone, for a gres.conf already written (by hand or an older slurmtopo): against
// the NodeName lines `plan` would emit, i.e. what the nodes really are, and each GPU's Cores=
// and Links= against the plan's (emit/gres_compare.h).
GresCheck check_existing_gres(const std::string& gres_text, const std::string& gres_file, const GresPlan& plan,
                              SlurmRelease version);

}  // namespace slurmtopo
