// `slurmtopo apply` as one call: emit what Slurm reads, check it against Slurm's rules and the
// running slurmctld's node list, and only then replace the files (atomically, keeping the
// previous ones), `scontrol reconfigure` and verify; on any failure put the previous files back
// and reconfigure again. Unchanged files: no write and no reconfigure. One apply at a time
// (flock on .slurmtopo-apply.lock beside slurm.conf); an apply killed between the write and
// the verification is finished by the next one (.slurmtopo-apply.pending).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "discover/node_set.h"
#include "emit/slurm_control.h"
#include "graph/cluster_inputs.h"
#include "slurm/release.h"

namespace slurmtopo {

struct ApplyRequest {
  ClusterInputs inputs;                             // --fabric, --node-name-map, --config
  std::string slurm_conf = "/etc/slurm/slurm.conf"; // its NodeName lines; the files go beside it
  bool topology = true;                             // --what topology
  bool gres = false;                                // --what gres (needs node descriptions)
  bool nodes = false;                               // --what nodes: the file slurm.conf Includes for its
                                                    // NodeName lines (emit/node_file.h); attributes only
  NodeSources node_sources;                         // --nodes-dir / --node-class, for gres and nodes
  std::string dev_dir;                              // --dev-dir: where gres.conf's File= point
  TargetRelease release;                            // cli: target_release(--slurm-version)
  bool dry_run = false;
  long max_anomalies = -1;                          // --max-anomalies: more is exit 4; -1 = no limit
  int verify_seconds = 30;                          // how long slurmctld may take to answer again
  std::string command;                              // the command line, for the headers
};

enum class ApplyOutcome {
  Unchanged,   // 0: the files in place are what slurmtopo would write (nothing done)
  DryRun,      // 0: --dry-run, the files differ (nothing done)
  Applied,     // 0: written, reconfigured, verified
  Anomalies,   // 1: more anomalies than --max-anomalies (nothing done)
  Refused,     // 2: bad input, or a file Slurm or the running cluster would not take (nothing done)
  RolledBack,  // 3: written, then reconfigure or verification failed; previous files restored
};
const char* to_string(ApplyOutcome outcome);

struct AppliedFile {
  std::string what;                 // "topology.conf", "gres.conf", "node lines"
  std::string path;
  bool changed = false;
  std::vector<std::string> diff;    // the admin's view of the change (topology: nodes moved, switches)
};

struct ApplyResult {
  ApplyOutcome outcome = ApplyOutcome::Unchanged;
  std::vector<AppliedFile> files;
  std::map<std::string, long> anomalies;          // by kind (graph/cluster.h's to_string)
  long degraded_links = 0, missing_links = 0;
  std::vector<std::string> out_of_topology;       // nodes slurmctld knows that no switch lists
  std::vector<std::string> steps;                 // what was done, in order
  std::vector<std::string> warnings;
  std::string reason;                             // why Refused / RolledBack / Anomalies
  bool reconfigured = false;
  long total_anomalies() const;
  int exit_code() const;
};

// Every outcome is in the result; unreadable input is Refused with the InputError's file:line.
ApplyResult apply(const ApplyRequest& request, SlurmControl& slurm);

}  // namespace slurmtopo
