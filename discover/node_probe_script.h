// The node probe: a /bin/sh script `collect` runs in its srun step on every node (and, with
// --container-exec, inside the job's container) that records what a job there can use. It
// needs no root and no bash, and never fails the step: a tool or file that is missing is
// written down as missing. discover/node_probe.h reads what it writes.
#pragma once

namespace slurmtopo {

// The script. Run as `/bin/sh -c SCRIPT NAME WHERE`: WHERE ("host" or "container") is written
// into the record. It writes the record on stdout, sections in this order:
//   slurmtopo-probe 1                 format version
//   where host|container
//   host NAME                         $SLURMD_NODENAME, else `hostname -s`
//   kernel RELEASE
//   [pci]      one line per GPU, NIC or accelerator function: BDF class= vendor= device= numa=
//              link=SPEED/WIDTH max=SPEED/WIDTH up=SPEED/WIDTH (sysfs current_link_* and
//              max_link_*, and the upstream port's max_link_*; "/" where there is no PCIe link)
//   [ib]       one line per RDMA port, TAB-separated: DEVICE port= state= phys_state= rate= link_layer= pci= fw=
//   [gdr]      each GPUDirect RDMA marker present: peermem module and memory-peer files, the
//              NVIDIA kernel module's banner (open or proprietary: DMA-BUF needs the open one)
//   [verbs]    what an RDMA job can open: /dev/infiniband entries, libibverbs, providers
//   [cuda]     the CUDA toolkit and NCCL libraries in sight: version.json, CUDA_VERSION, libnccl.so.*
//   [env]      NCCL_* variables as the job sees them
//   [nvidia-smi]  `nvidia-smi -q`, verbatim
//   [missing]  each tool or directory that was not there
//   slurmtopo-probe-end               absent: the record was cut short
const char* node_probe_script();

}  // namespace slurmtopo
