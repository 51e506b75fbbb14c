// `slurmtopo probe`: the measurements that check the fabric, planned as one sbatch script. Its
// srun steps run nccl-tests' all_reduce_perf, with NCCL_DEBUG=INFO, on placements chosen so
// that every leaf group, every group's uplinks and every rail's spines carry a measured job;
// `report --measured DIR` then reads each step's DIR/<name>.out back (measured_run.h). The
// cluster runs the script, not this machine: this only writes it.
#pragma once

#include <string>
#include <vector>

#include "graph/cluster.h"

namespace slurmtopo {

struct ProbeRequest {
  std::string nodes;          // --nodes: a hostlist, the hosts the probe may use (a partition's)
  std::string out_dir;        // each step's output, on a filesystem every node mounts
  std::string partition;      // optional #SBATCH --partition
  std::string account;        // optional #SBATCH --account
  std::string time_limit = "01:00:00";  // the whole job: every step, one after another
  // Ranks per node, one GPU each (all_reduce_perf -g 1), as nccl-tests runs under MPI. 0: no
  // GPU is asked of Slurm and each node runs one task (a cluster without GPUs, as in the
  // integration test).
  int gpus_per_node = 8;
  std::string mpi = "pmix";   // srun --mpi=; "" leaves it out (the cluster's MpiDefault)
  std::string container_image;  // Pyxis: every step runs inside this image
  // A command prefix that runs a command inside the job's container, e.g.
  // "apptainer exec --nv /images/train.sif"; split into words at blanks, as collect's is.
  std::string container_exec;
  std::string all_reduce_perf = "all_reduce_perf";  // the binary, as the nodes find it
  // Only for the `report --measured` command the script prints: the --fabric files and the
  // --node-name-map and --config that name its hosts (made absolute).
  std::vector<std::string> fabric_files;
  std::string name_map;
  std::string site_config;
};

enum class ProbeKind { Group, Pair, Rails, All };
const char* to_string(ProbeKind kind);  // "group", "pair", "rails", "all"

// One srun step: which hosts, and why these.
struct ProbePlacement {
  std::string name;                 // "01-group-su1", "05-pair-su1-su2", "07-rails", "08-all"
  ProbeKind kind = ProbeKind::Group;
  std::vector<std::string> groups;  // the leaf groups it spans (Cluster::groups names)
  std::vector<std::string> hosts;   // Slurm's node order
  std::string hostlist;             // the same, compressed: srun -w
  std::string output;               // out_dir/<name>.out: all_reduce_perf's table and NCCL's log
};

struct ProbePlan {
  std::vector<std::string> hosts;   // --nodes, Slurm's node order
  std::string out_dir;              // absolute, no trailing '/'
  std::string script_path;          // out_dir/probe.sbatch
  std::vector<ProbePlacement> placements;  // in the script's order
  std::vector<std::string> notes;   // placements left out, and why (for the person running it)
  std::string script;               // the sbatch script
};

// The placements, in this order, numbered from 01 (wider when there are 100 or more):
//   1. NN-group-G: each leaf group alone (Cluster::groups, in their order), its hosts restricted
//      to --nodes. A group with one host stays: that is the single-node test of its NVLink (and
//      of NCCL's intra-node paths); a group with none is not mentioned.
//   2. NN-pair-G1-G2: pairs of groups across the spines, over the groups that have hosts:
//      consecutive pairs g0+g1, g2+g3, …, then the first with the last when there are more than
//      two, so every group is in a pair (with an odd count, the last's only one).
//   3. NN-rails: one host from each group (its first), all together: a job whose every rail's
//      traffic crosses that rail's spines. Left out with fewer than two groups.
//   4. NN-all: every host of --nodes.
// A placement with fewer than two hosts other than a group's, or whose hosts are an earlier
// placement's (two groups: their pair is the whole list), is left out and said in `notes`.
// Group names go into file names through slurm_safe_name.
//
// Each step, one after another (they share the nodes), not stopping the script when it fails:
//   srun --nodes=N --ntasks=N*G --ntasks-per-node=G [--gpus-per-node=G] [--mpi=MPI] -w HOSTLIST
//        [--container-image=IMAGE] --output=OUT/<name>.out
//        [CONTAINER_EXEC...] env NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,NET,GRAPH
//        all_reduce_perf -b 16M -e 8G -f 2 -g 1 || true
// (G = gpus_per_node, 1 task per node when it is 0.) --ntasks is explicit because a step
// otherwise inherits the job's SLURM_NTASKS (every node's tasks) and srun refuses it on fewer
// nodes. The environment is set inside the container (after CONTAINER_EXEC), where a runtime
// that cleans the environment (apptainer --cleanenv) would otherwise drop it. NCCL's INFO lines
// go to stdout with the table: one file per step, which is how measured_run.h joins them.
// The job asks for the whole list exclusively (a shared node's traffic is not the fabric's).
// The script ends by printing the `slurmtopo report --measured OUT` command to run next.
//
// InputError("--nodes", 0, …) for an empty or malformed hostlist, a host the fabric does not
// have (with the nearest name), or a host in no leaf group; InputError("--output", 0, …) for an
// empty directory; InputError("--gpus-per-node", 0, …) below 0; InputError("--container-image",
// 0, …) with --container-exec as well. Same cluster and request → byte-identical script.
ProbePlan plan_probe(const Cluster& cluster, const ProbeRequest& request);

// Creates out_dir and writes the script to script_path atomically (base/atomic_write.h), so a
// half-written script is never submitted, and its placements beside it as out_dir/probe.json
// (probe_manifest.h), which `report --measured` reads back. InputError naming the directory when it cannot be made.
void write_probe_script(const ProbePlan& plan);

// What `probe` says once the script is written: where, its steps, how to submit it, the notes.
std::string probe_written_text(const ProbePlan& plan);

}  // namespace slurmtopo
