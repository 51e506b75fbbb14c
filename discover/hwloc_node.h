// One node's NodeInventory from hwloc: an XML export (formats 1.x and 2.0) or this machine.
//
// What counts, and why (hwloc.md has the facts):
//  - GPU: a PCI function with a CUDA/NVML/OpenCL(GPU)/RSMI/LevelZero OS device, or of class
//    0x0302 / 0x0380 / 0x1200 from NVIDIA, AMD or Intel, or 0x0300 from NVIDIA only (an AMD or
//    ASPEED 0x0300 without a compute device is the BMC's VGA). Another vendor's accelerator is
//    not a "gpu" gres. One PCI function is one GPU however many OS devices it carries, except
//    several RSMI devices under one function (MI300A in TPX/CPX mode): each is a GPU, because
//    slurmd's AutoDetect=rsmi and /dev/dri list each partition as its own device.
//  - Slurm index: ascending PCI bus id, partitions in RSMI order within their function.
//    device_file: /dev/nvidiaN counted over NVIDIA GPUs in index order; for AMD/Intel the
//    export's own renderD OS device when a whole function has exactly one, else
//    /dev/dri/renderD(128+N) counted over non-NVIDIA GPUs (render minors are one namespace).
//  - Cores: Core L# (Slurm's socket-major abstract ids) of the cores inside the GPU's CPU-side
//    parent (NUMA node, package, or the L3 of an MI250X GCD), never PU OS ids; from the whole
//    node even when the capture ran in a cgroup.
//  - RDMA NIC: a PCI function with an OpenFabrics OS device (mlx5_N, rdmap* for EFA), of class
//    0x0207 or 0x0c06 (InfiniBand), or from vendor 0x17db (HPE Slingshot "Cassini", Net hsiN,
//    no verbs device). link_layer: "InfiniBand" (0x0207/0x0c06), "Ethernet" (RoCE: verbs on
//    an Ethernet-class function), "EFA" (Amazon), "Slingshot" (vendor 0x17db; node_guid 0, so
//    never joined to an InfiniBand fabric). Names come from the verbs device, else the Net
//    device. port_guids only for InfiniBand (Port<N>GID0's low 64 bits).
//  - Memory and NUMA nodes: only NUMA nodes with CPUs. CPU-less ones (V100 HBM on POWER9,
//    CXL) are excluded with a warning, so RealMemory never exceeds what slurmd counts.
// Warnings (never silent): no I/O devices at all, cgroup-restricted or partly offline CPU
// sets, no PCI bridges (PIX/PXB not distinguishable from PHB), uneven sockets, link oddities.
#pragma once

#include <hwloc.h>

#include <string>
#include <variant>
#include <vector>

#include "base/input_error.h"
#include "discover/hwloc_topology.h"
#include "discover/node_inventory.h"

namespace slurmtopo {

// `hostname` empty: the export's HostName (short form), else the file name without .xml.
// Forks (the trial in load_hwloc_xml): the caller must be the process's only thread.
NodeInventory load_node_xml(const std::string& path, const std::string& hostname);

// Many exports, as load_node_xml(path, "") gives them, each parsed once in one of at most
// `parallel` child processes (load_hwloc_xml_files), the node coming back as node JSON: per
// file, in the order given, its node or its error — a file libhwloc crashes on is that
// file's error, and the files after it still load. Forks: the caller must be the process's
// only thread.
std::vector<std::variant<NodeInventory, InputError>> load_node_xmls(const std::vector<std::string>& paths,
                                                                    unsigned parallel);

// This machine (source "live"), hostname from gethostname() in short form; memory_mib is
// /proc/meminfo's MemTotal, as slurmd -C reports it (discover/meminfo.h).
NodeInventory discover_local_node();

// The common part: an already loaded topology (see hwloc_topology.h for the flags it needs).
NodeInventory inventory_from_topology(hwloc_topology_t topology, const std::string& hostname,
                                      const std::string& source);

}  // namespace slurmtopo
