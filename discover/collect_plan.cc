#include "discover/collect_plan.h"

#include <algorithm>
#include <stdexcept>

#include "base/input_error.h"
#include "base/shell_quote.h"
#include "discover/job_paths.h"
#include "discover/node_probe_script.h"
#include "slurm/hostlist.h"
#include "slurm/node_names.h"

namespace slurmtopo {
namespace {

constexpr const char* kJobName = "slurmtopo-collect";

// Runs on every node with the output directory as $1. Written for /bin/sh (no bashisms):
// compute nodes are not guaranteed to have bash in the same place.
constexpr const char* kTaskScript =
    "set -e; n=\"${SLURMD_NODENAME:-$(hostname -s)}\"; t=\"$1/$n.xml.tmp.$$\"; "
    "lstopo-no-graphics --of xml --whole-io --disallowed --force \"$t\"; mv -f \"$t\" \"$1/$n.xml\"; "
    "if command -v nvidia-smi >/dev/null 2>&1; then f=\"$1/$n.fabric.csv.tmp.$$\"; "
    "if nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId --format=csv,noheader >\"$f\"; "
    "then mv -f \"$f\" \"$1/$n.fabric.csv\"; else rm -f \"$f\"; fi; fi; "
    // The node probe ($2), which never fails; then, with --container-exec ($3, split into
    // words on purpose: it is a command prefix), the same probe inside the job's container.
    "p=\"$1/$n.probe.tmp.$$\"; /bin/sh -c \"$2\" probe host >\"$p\" 2>/dev/null || :; mv -f \"$p\" \"$1/$n.probe\"; "
    "if [ -n \"$3\" ]; then c=\"$1/$n.container.probe.tmp.$$\"; "
    "$3 /bin/sh -c \"$2\" probe container >\"$c\" 2>/dev/null || :; mv -f \"$c\" \"$1/$n.container.probe\"; fi";

}  // namespace

CollectPlan plan_collect(const CollectRequest& r) {
  CollectPlan plan;
  if (r.nodes.empty()) throw InputError("--nodes", 0, "expected a hostlist of the nodes to collect, e.g. gpu[001-128]");
  plan.hosts = expand_hostlist_at(r.nodes, "--nodes", 0, "'" + r.nodes + "' is not a hostlist");
  std::sort(plan.hosts.begin(), plan.hosts.end(), natural_less);
  plan.hosts.erase(std::unique(plan.hosts.begin(), plan.hosts.end()), plan.hosts.end());
  if (plan.hosts.empty()) throw InputError("--nodes", 0, "the hostlist '" + r.nodes + "' names no node");
  for (const auto& h : plan.hosts)
    if (!valid_slurm_node_name(h)) throw InputError("--nodes", 0, "\"" + h + "\" is not a Slurm node name");
  check_one_container(r.container_image, r.container_exec);
  plan.out_dir = step_output_dir(r.out_dir, "the nodes write their XML into");

  const std::string list = compress_hostlist(plan.hosts);
  const std::string n = std::to_string(plan.hosts.size());
  std::vector<std::string> options = {"--job-name=" + std::string(kJobName), "--nodelist=" + list, "--nodes=" + n,
                                      "--ntasks=" + n, "--ntasks-per-node=1"};
  if (!r.partition.empty()) options.push_back("--partition=" + r.partition);
  if (!r.account.empty()) options.push_back("--account=" + r.account);
  if (!r.time_limit.empty()) options.push_back("--time=" + r.time_limit);
  const std::vector<std::string> task = {"/bin/sh", "-c", kTaskScript, kJobName, plan.out_dir, node_probe_script(),
                                         r.container_exec};

  plan.srun_argv = {"srun"};
  plan.srun_argv.insert(plan.srun_argv.end(), options.begin(), options.end());
  plan.srun_argv.insert(plan.srun_argv.end(), r.extra_srun_args.begin(), r.extra_srun_args.end());
  plan.srun_argv.insert(plan.srun_argv.end(), task.begin(), task.end());
  plan.srun_command = shell_join(plan.srun_argv);
  // Pyxis puts the whole step in the container, so the container's probe is a step of its own;
  // srun writes each node's stdout to OUT/<node>.container.probe (%N), since the container
  // need not see OUT. No rename here: the probe's end marker tells a cut record.
  std::vector<std::string> container_step;
  if (!r.container_image.empty()) {
    container_step = {"--container-image=" + r.container_image,
                      "--output=" + plan.out_dir + "/%N.container.probe"};
    container_step.insert(container_step.end(), r.extra_srun_args.begin(), r.extra_srun_args.end());
    container_step.insert(container_step.end(), {"/bin/sh", "-c", node_probe_script(), "probe", "container"});
    plan.container_argv = {"srun"};
    plan.container_argv.insert(plan.container_argv.end(), options.begin(), options.end());
    plan.container_argv.insert(plan.container_argv.end(), container_step.begin(), container_step.end());
    plan.container_command = shell_join(plan.container_argv);
  }

  std::string s = "#!/bin/sh\n";
  s += "# slurmtopo collect: each node writes its hwloc export to " + plan.out_dir + "/<node>.xml\n";
  s += "# (the directory must be on a filesystem every node mounts). Then:\n";
  s += "#   slurmtopo discover classes --nodes-dir " + shell_quote(plan.out_dir) + " --nodes " + shell_quote(list) + "\n";
  s += "# Where nvidia-smi exists, each node also writes <node>.fabric.csv (its GPUs' NVLink ClusterUUID\n";
  s += "# and CliqueId) for: slurmtopo emit topology --plugin block --nvlink-domains " + shell_quote(plan.out_dir) + "\n";
  s += "# Each node also writes <node>.probe (PCIe links, RDMA ports, GPUDirect, nvidia-smi -q)" +
       std::string(r.container_exec.empty() && r.container_image.empty()
                       ? ""
                       : " and <node>.container.probe (the same, inside the job's container)") +
       ",\n# which inspect and report read from --nodes-dir.\n";
  for (const auto& o : options) s += "#SBATCH " + o + "\n";
  s += "#SBATCH --output=" + std::string(kJobName) + "-%j.log\n";
  s += "mkdir -p " + shell_quote(plan.out_dir) + "\n";
  std::vector<std::string> step = {"srun", "--ntasks-per-node=1"};
  step.insert(step.end(), r.extra_srun_args.begin(), r.extra_srun_args.end());
  step.insert(step.end(), task.begin(), task.end());
  s += shell_join(step) + "\n";
  if (!container_step.empty()) {
    std::vector<std::string> second = {"srun", "--ntasks-per-node=1"};
    second.insert(second.end(), container_step.begin(), container_step.end());
    s += shell_join(second) + "\n";
  }
  plan.sbatch_script = s;

  for (const auto& h : plan.hosts) {
    plan.expected_files.push_back(plan.out_dir + "/" + h + ".xml");
    plan.fabric_files.push_back(plan.out_dir + "/" + h + ".fabric.csv");
    plan.probe_files.push_back(plan.out_dir + "/" + h + ".probe");
    if (!r.container_exec.empty() || !r.container_image.empty())
      plan.container_probe_files.push_back(plan.out_dir + "/" + h + ".container.probe");
  }
  return plan;
}

}  // namespace slurmtopo
