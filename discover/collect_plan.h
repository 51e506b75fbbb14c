// `slurmtopo collect`: one srun step over the nodes writes each node's hwloc export into a
// shared directory as <nodename>.xml, ready for --nodes-dir. Slurm is the parallel engine;
// this only builds the command (the CLI prints or runs it).
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct CollectRequest {
  std::string nodes;        // hostlist expression, e.g. "gpu[001-128]"
  std::string out_dir;      // must be visible from every node (shared filesystem)
  std::string partition;    // optional -p
  std::string account;      // optional -A
  std::string time_limit = "00:10:00";
  std::vector<std::string> extra_srun_args;  // passed through, e.g. "--gres=gpu:8"
  // A command prefix that runs a command inside the job's container, e.g.
  // "apptainer exec --nv /images/train.sif": the node probe runs through it a second time.
  std::string container_exec;
  // Pyxis's --container-image: the probe runs in a second srun step inside that image.
  std::string container_image;
};

struct CollectPlan {
  std::vector<std::string> hosts;       // expanded, natural order
  std::string out_dir;                  // absolute
  std::vector<std::string> srun_argv;   // exec'd without a shell
  std::string srun_command;             // the same, shell-quoted, for printing
  std::vector<std::string> container_argv;  // with container_image: the second step (Pyxis)
  std::string container_command;            // the same, shell-quoted
  std::string sbatch_script;            // an equivalent batch job
  std::vector<std::string> expected_files;  // out_dir/<host>.xml, in host order
  std::vector<std::string> fabric_files;    // out_dir/<host>.fabric.csv, where nvidia-smi exists
  std::vector<std::string> probe_files;     // out_dir/<host>.probe
  std::vector<std::string> container_probe_files;  // out_dir/<host>.container.probe (with container_exec)
};

// InputError("--nodes" / "--output", 0, ...) for an empty or malformed hostlist, an invalid node
// name, or an empty output directory.
//
// Each task runs, on its node:
//   lstopo-no-graphics --of xml --whole-io --disallowed --force  OUT/<node>.xml.tmp.<pid>
//   && mv -f  OUT/<node>.xml.tmp.<pid>  OUT/<node>.xml
// <node> is $SLURMD_NODENAME (Slurm's name, which --nodes-dir matches), not the kernel
// hostname. --disallowed keeps the CPUs outside the step's cgroup (else every GPU's core
// list is cut to the step's CPUs); --whole-io keeps every bridge for the PCIe path classes;
// the temp file + rename means a half-written export never looks like a complete one.
// In the same task, where nvidia-smi exists:
//   nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId --format=csv,noheader
//     > OUT/<node>.fabric.csv.tmp.<pid> && mv -f ... OUT/<node>.fabric.csv
// (each GPU's NVLink domain, for emit topology --nvlink-domains OUT); a node without
// nvidia-smi, or whose nvidia-smi fails, writes none and emit reports its domain unknown.
// Then, in the same task, the node probe (node_probe_script.h) writes OUT/<node>.probe the same
// way (temp file + rename), and with container_exec OUT/<node>.container.probe from inside the
// container: `CONTAINER_EXEC /bin/sh -c PROBE probe container`. With container_image (Pyxis)
// a second step runs `srun --container-image=IMAGE --output=OUT/%N.container.probe ... /bin/sh
// -c PROBE probe container`. InputError("--container-image") when both are given.
// GPUs hidden by ConstrainDevices are still found by PCI class, but without NVML's model
// names and NVLink matrix: request them with extra_srun_args (e.g. --gres=gpu:8) if needed.
CollectPlan plan_collect(const CollectRequest& request);


}  // namespace slurmtopo
