// `slurmtopo emit topology` as one call: read the fabric and NVLink domains, choose the release
// (--slurm-version, else `scontrol --version`, else 22.05), plan and check the topology file in
// the requested form (emit/topology_plan.h), diff it against a file, and write it — atomically,
// and only when slurmctld would accept it and it does not silently drop nodes the file in place
// has (emit/write_guard.h). Block and yaml files are compared by their (cluster_default) blocks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/atomic_write.h"
#include "emit/topology_diff.h"
#include "emit/topology_plan.h"
#include "graph/cluster_inputs.h"

namespace slurmtopo {

struct EmitTopologyRequest {
  ClusterInputs inputs;
  std::string nodes;       // --nodes HOSTLIST: Slurm's nodes; or
  std::string slurm_conf;  // --slurm-conf: its NodeName lines
  std::string format = "conf";   // --format conf|yaml
  std::string plugin = "tree";   // --plugin tree|block
  TargetRelease release;         // cli: target_release(--slurm-version)
  std::string nvlink_domains;    // --nvlink-domains FILE|DIR
  std::string block_sizes;       // --block-sizes N,2N,...: BlockSizes chosen by the admin
  std::string diff;        // --diff OLD
  std::string output;      // -o; "-" or "" = stdout
  bool force = false;      // write even if it drops more than 5 % of the current file's nodes
  std::string command;     // the command line for the header
};

struct EmitTopologyResult {
  TopologyPlan plan;
  std::string target;                 // the file as messages name it ("topology.conf" for stdout)
  bool to_stdout = false;
  std::vector<std::string> warnings;  // about the inputs (unresolved HCAs, split fabrics, ...)
  std::vector<std::string> notes;
  std::optional<TopologyDiff> diff;   // against --diff
  std::string diff_against;
  std::optional<std::string> refusal; // nothing written, and why
  std::optional<WriteResult> written;
  int exit_code() const { return refusal ? 2 : 0; }
};

// Throws InputError for bad inputs (the fabric, --nodes, --slurm-conf, a --diff or current file
// that slurmctld could not read).
EmitTopologyResult emit_topology(const EmitTopologyRequest& request);

}  // namespace slurmtopo
