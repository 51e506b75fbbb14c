// slurm.conf NodeName= lines per node class, matching what `slurmd -C` reports, plus per
// class the NCCL_IB_HCA list an admin puts in the job environment (/etc/nccl.conf or a
// prolog): the NIC nearest each GPU, in GPU order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "discover/node_inventory.h"
#include "slurm/release.h"

namespace slurmtopo {

// RealMemory for hosts whose smallest total (MemTotal in MiB: what `slurmd -C` reports; a live
// node reads /proc/meminfo, an export hwloc's memory) is `total_mib`: 1 % less, at least 1 GiB
// less, rounded down to a whole GiB.
// slurmd drains a node whose memory is below RealMemory ("Low RealMemory"), and MemTotal
// moves by tens to hundreds of MiB between kernels, firmware and crashkernel sizes; 1 % is
// what a margin costs. 0 (unknown) stays 0 and the line gets no RealMemory=.
uint64_t real_memory_mib(uint64_t total_mib);

struct NodeLine {
  std::string hostlist;
  int cpus = 0, sockets = 0, cores_per_socket = 0, threads_per_core = 0;
  uint64_t memory_mib = 0;   // the smallest host's total
  uint64_t real_memory = 0;  // real_memory_mib(memory_mib)
  std::vector<std::pair<std::string, int>> gres;  // (type, count), types by first GPU index
  // NCCL_IB_HCA: the nearest rail NIC of each GPU in GPU order, each once — never an Ethernet
  // port on a host with InfiniBand ones — as most hosts of the class have it, compared as sets
  // (the model's on a tie); nccl_differ: the hosts whose own set differs (their layout is not
  // the class's).
  std::vector<std::string> nccl_hcas;
  size_t nccl_hosts = 0, nccl_class_hosts = 0;
  std::vector<std::string> nccl_differ;
  // The class split by the attributes slurmtopo does not compute, kept from the file in place
  // (emit/node_file.h): (hostlist, "NodeAddr=… Port=…") per NodeName line, written after
  // slurmtopo's attributes. Empty: one line for `hostlist`.
  std::vector<std::pair<std::string, std::string>> kept;
};

// `hosts` all belong to one class (same hardware signature); the first is the model.
NodeLine node_line_for_class(const std::vector<const NodeInventory*>& hosts, const std::string& hostlist);

// "gpu:h100:8", "gpu:a100:2,gpu:t4:1", "gpu:4" for untyped GPUs; "" without GPUs.
std::string gres_spec(const NodeLine& line);

// NCCL_IB_HCA value with exact names: "=mlx5_0,mlx5_3". Without the leading '=' NCCL
// matches prefixes, and mlx5_1 would also select mlx5_10 and mlx5_11 on a 12-NIC host.
std::string nccl_ib_hca_value(const std::vector<std::string>& names);

// A partition and the topology.yaml topology it uses (Slurm 25.05+: Topology=NAME).
struct PartitionTopology {
  std::string partition, topology;
};
// "gpu=block" each; throws InputError("--partition-topology", ...) for another shape, a name
// Slurm cannot use, or a release before 25.05 (which has no Topology=).
std::vector<PartitionTopology> parse_partition_topology(const std::vector<std::string>& specs, SlurmRelease release);

struct NodeLinesHeader {
  std::string command;
  std::string release;        // release_line(): "Slurm 22.05 (slurmctld -V: slurm-wlm 22.05.8)"
  bool gres_types = true;     // a GresTypes=gpu line: a fragment for slurm.conf has it, the
                              // included node file apply owns does not (a change needs a restart)
};

// GresTypes=gpu (when any class has GPUs), then per class its comment lines and NodeName= line.
// `partitions`: PartitionName=P Nodes=ALL Topology=T lines after the nodes.
std::string render_node_lines(const std::vector<NodeLine>& lines, const NodeLinesHeader& header,
                              const std::vector<PartitionTopology>& partitions = {});

}  // namespace slurmtopo
