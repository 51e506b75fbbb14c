// Which NVLink domain each node's GPUs are in, as the GPUs report it: the fabric ClusterUUID
// and CliqueId of `nvidia-smi -q`'s Fabric section. Two sources:
//   - a domains file, one `HOST: CLUSTER_UUID[.CLIQUE_ID]` line per node (azslurm's
//     nodes_clusterUUIDs.txt), or
//   - a directory of `HOST.fabric.csv` files, each what
//       nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId --format=csv,noheader
//     printed on that node (`slurmtopo collect` writes them beside HOST.xml).
// Facts only: a GPU that reports no domain ("N/A", the all-zero UUID of a fabric not yet
// up) is kept as such; emit/block_plan.h decides what a node without one, or whose GPUs
// disagree, means.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

struct GpuFabric {
  std::string cluster_uuid;  // lower case; "" when the GPU reports none
  std::string clique;        // decimal CliqueId; "" when none
  // "UUID" or "UUID.CLIQUE"; "" without a ClusterUUID.
  std::string domain() const { return cluster_uuid.empty() ? "" : clique.empty() ? cluster_uuid : cluster_uuid + "." + clique; }
};

struct HostFabric {
  std::string host;
  std::string file;            // where it was read, for messages
  int line = 0;                // its line in a domains file; 0 for a per-node file
  std::vector<GpuFabric> gpus; // a domains file gives one entry per host
  // The distinct domains its GPUs report, in GPU order ("" for a GPU that reports none): one
  // non-empty entry is the host's domain; none, or several, is a host without one.
  std::vector<std::string> domains() const;
};

struct NvlinkDomains {
  std::string source;             // the file or directory
  std::vector<HostFabric> hosts;  // file order (domains file) or natural order (directory)
};

// `HOST: CLUSTER_UUID[.CLIQUE_ID]` lines; `#` comments and blank lines skipped. Throws
// InputError(file, line, ...) for a line of another shape, a host name Slurm cannot use, a
// host listed twice, or a value that is neither a UUID (8-4-4-4-12 hex digits, optionally
// `.DIGITS`) nor N/A.
NvlinkDomains parse_nvlink_domains(std::string_view text, const std::string& file);

// nvidia-smi's CSV, one `UUID, CLIQUE` line per GPU in GPU index order (a header line
// `fabric.clusterUuid, fabric.cliqueId` is skipped). Throws InputError(file, line, ...) for
// anything else.
std::vector<GpuFabric> parse_nvidia_smi_fabric(std::string_view text, const std::string& file);

// `path` a domains file, or a directory of HOST.fabric.csv files. Throws InputError when it
// cannot be read, or a directory holds none.
NvlinkDomains load_nvlink_domains(const std::string& path);

}  // namespace slurmtopo
