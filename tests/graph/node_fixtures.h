// Node inventories built by hand, shaped like the real machines the tests reason about, for
// the join, gres.conf and NodeName tests (no hwloc: those facts are tested in tests/discover).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "discover/node_inventory.h"
#include "discover/node_set.h"
#include "slurm/hostlist.h"

namespace slurmtopo::testing {

// The GUID discover/synthetic_fabric.h gives "<host> mlx5_<rail>".
inline uint64_t synthetic_guid(int host_index, int rail) {
  return 0xb83fd20300c00000ULL + 16ULL * static_cast<uint64_t>(host_index) + static_cast<uint64_t>(rail);
}

inline std::vector<int> range(int lo, int hi) {  // [lo, hi]
  std::vector<int> v;
  for (int i = lo; i <= hi; ++i) v.push_back(i);
  return v;
}

// DGX H100-like: 2 sockets x 56 cores x 2 threads, `gpus` GPUs on NVSwitch (no links), GPU g
// PIX to compute NIC g (mlx5_g, GUID of synthetic host `host_index` rail g), the first half
// of both on socket 0; path classes NODE within a socket, SYS across.
inline NodeInventory dgx_like(const std::string& host, int host_index, int gpus = 8) {
  NodeInventory n;
  n.hostname = host;
  n.source = "test";
  n.sockets = 2, n.cores_per_socket = 56, n.threads_per_core = 2, n.numa_nodes = 2;
  n.memory_mib = 2063937;
  auto socket = [&](int g) { return g < gpus / 2 ? 0 : 1; };
  for (int g = 0; g < gpus; ++g) {
    Gpu gpu;
    gpu.index = g;
    gpu.vendor = "nvidia";
    gpu.model = "NVIDIA H100 80GB HBM3";
    gpu.slurm_type = "h100";
    gpu.pci_busid = "0000:" + std::to_string(10 + g * 10) + ":00.0";
    gpu.device_file = "/dev/nvidia" + std::to_string(g);
    gpu.socket = gpu.numa_node = socket(g);
    gpu.cores = range(socket(g) * 56, socket(g) * 56 + 55);
    n.gpus.push_back(gpu);
    RdmaNic nic;
    nic.name = "mlx5_" + std::to_string(g);
    nic.node_guid = synthetic_guid(host_index, g);
    nic.port_guids = {nic.node_guid};
    nic.pci_busid = "0000:" + std::to_string(9 + g * 10) + ":00.0";
    nic.link_layer = "InfiniBand";
    nic.socket = nic.numa_node = socket(g);
    n.nics.push_back(nic);
  }
  for (int g = 0; g < gpus; ++g) {
    std::vector<PathClass> to_nic, to_gpu;
    for (int k = 0; k < gpus; ++k) {
      PathClass c = k == g ? PathClass::PIX : socket(k) == socket(g) ? PathClass::NODE : PathClass::SYS;
      to_nic.push_back(c);
      to_gpu.push_back(k == g ? PathClass::X : c);
    }
    n.gpu_nic.push_back(to_nic);
    n.gpu_gpu.push_back(to_gpu);
  }
  return n;
}

// Dell XE8640-like (flux-core ipa20.xml as slurmtopo discover node reads it): 4 H100 with 6
// NVLinks between every pair, SNC4 so each GPU's cores are 14 of a socket's 56; GPU 2 has no
// NIC nearer than SYS, mlx5_0/mlx5_1 are the two functions of one card on GPU 0's switch.
inline NodeInventory xe8640_like(const std::string& host) {
  NodeInventory n;
  n.hostname = host;
  n.source = "test";
  n.sockets = 2, n.cores_per_socket = 56, n.threads_per_core = 2, n.numa_nodes = 8;
  n.memory_mib = 4127775;
  const std::vector<std::vector<int>> cores{range(42, 55), range(14, 27), range(98, 111), range(70, 83)};
  const int socket[] = {0, 0, 1, 1}, numa[] = {3, 1, 7, 5};
  for (int g = 0; g < 4; ++g) {
    Gpu gpu;
    gpu.index = g;
    gpu.vendor = "nvidia";
    gpu.model = "NVIDIA H100 80GB HBM3";
    gpu.slurm_type = "h100";
    gpu.device_file = "/dev/nvidia" + std::to_string(g);
    gpu.cores = cores[g];
    gpu.socket = socket[g];
    gpu.numa_node = numa[g];
    gpu.nvlinks = {6, 6, 6, 6};
    gpu.nvlinks[g] = -1;
    n.gpus.push_back(gpu);
  }
  const char* names[] = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};
  const uint64_t guids[] = {0x043f720300aea282, 0x043f720300aea283, 0xa088c2030009704e, 0xa088c20300097012};
  const int nic_socket[] = {0, 0, 0, 1};
  for (int k = 0; k < 4; ++k) {
    RdmaNic nic;
    nic.name = names[k];
    nic.node_guid = guids[k];
    nic.link_layer = "InfiniBand";
    nic.socket = nic_socket[k];
    n.nics.push_back(nic);
  }
  using P = PathClass;
  n.gpu_nic = {{P::PIX, P::PIX, P::SYS, P::SYS}, {P::SYS, P::SYS, P::PIX, P::SYS},
               {P::SYS, P::SYS, P::SYS, P::SYS}, {P::SYS, P::SYS, P::SYS, P::PIX}};
  n.gpu_gpu = {{P::X, P::SYS, P::SYS, P::SYS}, {P::SYS, P::X, P::SYS, P::SYS},
               {P::SYS, P::SYS, P::X, P::SYS}, {P::SYS, P::SYS, P::SYS, P::X}};
  return n;
}

// A NodeSet as load_node_set() builds it: natural host order, classes by signature.
inline NodeSet node_set(std::vector<NodeInventory> nodes) {
  std::sort(nodes.begin(), nodes.end(),
            [](const NodeInventory& a, const NodeInventory& b) { return natural_less(a.hostname, b.hostname); });
  NodeSet set;
  set.nodes = std::move(nodes);
  set.classes = group_node_classes(set.nodes);
  return set;
}

}  // namespace slurmtopo::testing
