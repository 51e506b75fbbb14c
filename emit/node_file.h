// The slurm.conf node-lines file `apply --what nodes` owns. NodeName lines are not rewritten
// inside slurm.conf: the admin's practice is `Include /etc/slurm/nodes.conf` in slurm.conf and
// one file of NodeName lines that a tool may replace whole. This finds that file, refuses what
// a reconfigure cannot take (Slurm 22.05 scontrol(1): "The slurmctld daemon and all slurmd
// daemons must also be restarted if nodes are added to or removed from the cluster"; slurm.conf(5):
// a GresTypes change needs a restart too), and renders the new file: slurmtopo's hardware
// attributes, every other attribute of each node (NodeAddr, Port, Weight, Feature, …) kept.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "emit/node_lines.h"
#include "slurm/slurm_conf.h"

namespace slurmtopo {

// The file that holds every NodeName line of `conf` (read from `slurm_conf`); throws InputError
// when they are inline in slurm.conf itself, spread over several files, or the file holds
// other lines too (which replacing it would drop).
std::string owned_node_file(const SlurmConf& conf, const std::string& slurm_conf);

// The attributes slurmtopo does not compute, per node, from the NodeName lines of `text`
// (a NodeName=DEFAULT line's apply to the lines after it): "NodeAddr=10.0.0.1 Port=6818".
std::map<std::string, std::string> kept_node_attributes(const std::string& text, const std::string& file);

// `lines` with each class split by the kept attributes of its nodes (nodes alike share a line).
std::vector<NodeLine> with_kept_attributes(std::vector<NodeLine> lines, const std::map<std::string, std::string>& kept);

// Why a reconfigure cannot take the new node lines (nodes added or removed against the running
// slurmctld, GPUs without GresTypes=gpu), or nullopt.
std::optional<std::string> node_change_refusal(const std::vector<std::string>& running,
                                               const std::vector<std::string>& planned,
                                               const std::vector<std::string>& gres_types, bool gpus);

// Why a reconfigure cannot take the CPU counts of `lines` against what slurmctld runs with
// (`show_nodes`: scontrol show nodes --oneliner), or nullopt. Seen on a real 22.05 slurmctld:
// "error: Configured cpu count change on gpu001 (8 to 224)", and the reconfigure fails with
// "The node configuration changes that were made require restart of the slurmctld daemon".
std::optional<std::string> cpu_change_refusal(const std::vector<NodeLine>& lines, const std::string& show_nodes);

// What `scontrol show nodes --oneliner` must show once slurmctld has read `lines`: "" or the
// first node whose CPUTot, Sockets, RealMemory or Gres differs.
std::string node_lines_mismatch(const std::vector<NodeLine>& lines, const std::string& show_nodes);

}  // namespace slurmtopo
