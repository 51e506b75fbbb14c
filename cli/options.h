// The options several commands share, declared once: the fabric (--fabric, --node-name-map,
// --config), the node descriptions (--nodes-dir, --node-class, --nodes), the topology form, the
// Slurm release and slurm.conf, the hardware profile and the output (-o).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/option_values.h"
#include "discover/discover.h"
#include "graph/graph.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

enum class FabricOption {
  Required,  // the command reads a fabric
  Optional,  // it can join with one, or build from one
  MapsOnly,  // the fabric comes from elsewhere (a live sweep): only --node-name-map, --config
};

// Declares --fabric (unless MapsOnly), --node-name-map and --config; returns --fabric's option
// (nullptr for MapsOnly) so a command can make it exclude another. `fabric_help`, for an
// optional --fabric, says what it is for in place of the default (joining GPUs to rails).
CLI::Option* add_fabric_options(CLI::App& app, ClusterInputs& inputs, FabricOption need,
                                const std::string& fabric_help = "");
// --counters FILE (repeatable): the port counters inspect and report judge cables by (and
// whatif --drain-errored drains them by); `what` follows the forms.
void add_counters_option(CLI::App& app, ClusterInputs& inputs, const std::string& what = "");
// --plan FILE: the cabling plan (graph/plan_check.h).
void add_plan_option(CLI::App& app, ClusterInputs& inputs);

// What the node-description options fill.
struct NodeInputs {
  NodeSources sources;
  std::string nodes;  // --nodes HOSTLIST: hosts that must all be described
};
void add_node_options(CLI::App& app, NodeInputs& inputs);

// The topology file's form, as `emit topology` and `report` take it: --format conf|yaml,
// --plugin tree|block and --nvlink-domains FILE|DIR (the blocks).
struct TopologyFormOptions {
  std::string* format;
  std::string* plugin;
  std::string* nvlink_domains;
};
void add_topology_form_options(CLI::App& app, const TopologyFormOptions& into);
// --nvlink-domains FILE|DIR: which NVLink domain each host is in (discover/nvlink_domains.h).
CLI::Option* add_nvlink_domains_option(CLI::App& app, std::string& path, const std::string& what);

// --slurm-version YY.MM, spelled and described alike by every command: `decides` says what the
// release changes for this command; a default the command has is shown.
void add_slurm_version_option(CLI::App& app, std::string& version, const std::string& decides);
// The release the command works for, resolved once (target_release: --slurm-version, else the
// installed Slurm, else 22.05). The default is said on stderr, as a file for the wrong release
// is the mistake it prevents.
TargetRelease resolve_release(const std::string& requested);

// --profile: a shipped hardware profile (listed) or a YAML file; `what` says what it is for.
CLI::Option* add_profile_option(CLI::App& app, std::string& profile, const std::string& what);

// --slurm-conf FILE (it must exist); `what` says what the command reads from it.
CLI::Option* add_slurm_conf_option(CLI::App& app, std::string& slurm_conf, const std::string& what);

// --nodes-dir DIR of <hostname>.xml (hwloc) / <hostname>.json; `what` adds what it is for.
CLI::Option* add_nodes_dir_option(CLI::App& app, std::string& dir, const std::string& what = "");

// --nodes HOSTLIST; `what` says what the command does with them.
CLI::Option* add_nodes_option(CLI::App& app, std::string& nodes, const std::string& what);

// --dry-run; `what` says what is done instead.
CLI::Option* add_dry_run_option(CLI::App& app, bool& dry_run, const std::string& what);

// --json (a flag): print JSON instead of text; `what` adds what it holds.
CLI::Option* add_json_flag(CLI::App& app, bool& json, const std::string& what = "");

// --save FILE: a snapshot of the fabric that --fabric reads back; `what` adds what it holds.
CLI::Option* add_save_option(CLI::App& app, std::string& file, const std::string& what = "");

// --dev-dir DIR: where gres.conf's File= points.
CLI::Option* add_dev_dir_option(CLI::App& app, std::string& dir);

// The job's surroundings as place and whatif take them: --weights, --busy (`busy_detail` is
// appended to its help), --topology-param.
struct JobOptions {
  std::string* weights;
  std::string* busy;
  std::string* topology_param;
  std::string busy_detail;
};
void add_job_options(CLI::App& app, const JobOptions& into);

// The Slurm job a command runs or writes, as collect and probe take it: -p/--partition,
// -A/--account and -t/--time (its default shown); `what` names it ("the step", "the job").
struct BatchJobOptions {
  std::string* partition;
  std::string* account;
  std::string* time_limit;
};
void add_batch_job_options(CLI::App& app, const BatchJobOptions& into, const std::string& what);

// One way into the job's container: --container-exec (a command prefix) or --container-image
// (Pyxis); the library refuses both. `exec_what` and `image_what` say what runs inside.
void add_container_options(CLI::App& app, std::string& exec, std::string& image, const std::string& exec_what,
                           const std::string& image_what);

// -o/--output: "-" or absent is stdout. `what` says what is written there.
CLI::Option* add_output_option(CLI::App& app, std::string& output, const std::string& what);

// -o/--output DIR (required): the directory the files are written into. `what` says which.
CLI::Option* add_output_dir_option(CLI::App& app, std::string& dir, const std::string& what);

// --allow-missing: nodes missing (a --nodes host without a file, Slurm nodes no switch reaches,
// a new file dropping the current one's nodes) are a warning, not a refusal. `what` says which
// this command accepts.
CLI::Option* add_allow_missing_option(CLI::App& app, bool& allow, const std::string& what);

// --measured PATH: nccl-tests outputs and NCCL_DEBUG=INFO logs, a file or a directory
// (simulate/measured/measured_run.h), each run compared with its prediction.
CLI::Option* add_measured_option(CLI::App& app, std::string& path, const std::string& what);

// --topology FILE: the topology.conf (or topology.yaml) Slurm uses now, read as input. `what`
// says what the command does with it. (whatif's edit, a file Slurm would use instead, is
// --replace-topology.)
CLI::Option* add_topology_input_option(CLI::App& app, std::string& file, const std::string& what);

}  // namespace slurmtopo::cli
