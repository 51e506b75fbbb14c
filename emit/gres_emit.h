// `slurmtopo emit gres` (gres.conf) and `emit nodes` (slurm.conf NodeName lines) as one call:
// the node classes, their join to the fabric (for the anomalies), the plan both files come
// from, and the write — only when slurmd would accept both together and the new file does not
// silently drop nodes the file in place has (emit/write_guard.h). `--check` checks a file in
// place against what the nodes are instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/atomic_write.h"
#include "discover/node_set.h"
#include "emit/gres_plan.h"
#include "graph/cluster_inputs.h"

namespace slurmtopo {

enum class GresOutput { Gres, Nodes };

struct EmitGresRequest {
  GresOutput what = GresOutput::Gres;
  NodeSources sources;       // --nodes-dir / --node-class
  std::string nodes;         // --nodes HOSTLIST that must all be described
  ClusterInputs fabric;      // optional: join GPUs to rails and leaves
  TargetRelease release;     // cli: target_release(--slurm-version)
  std::string dev_dir;
  std::string output;        // "-" or "" = stdout
  std::string check;         // gres only: check this existing gres.conf instead of emitting
  std::vector<std::string> partition_topology;  // nodes only: PART=TOPOLOGY, PartitionName lines (25.05+)
  bool force = false;        // past the 5 % guard, and a --nodes host without a file is a warning
  std::string command;       // for the header comments
};

struct EmitGresResult {
  GresOutput what = GresOutput::Gres;
  SlurmRelease version;
  GresPlan plan;
  size_t nodes = 0, classes = 0;
  std::string target;                 // the file as messages name it
  bool to_stdout = false;
  std::vector<std::string> warnings;  // about the node files and their join to the fabric
  std::optional<GresCheck> checked;   // --check
  std::optional<std::string> refusal; // nothing written, and why
  std::optional<WriteResult> written;
  const std::string& text() const { return what == GresOutput::Gres ? plan.gres_text : plan.nodes_text; }
  int exit_code() const { return refusal || (checked && !checked->ok()) ? 2 : 0; }
};

EmitGresResult emit_gres(const EmitGresRequest& request);

}  // namespace slurmtopo
