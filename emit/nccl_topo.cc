#include "emit/nccl_topo.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

namespace slurmtopo {

namespace {

bool same_switch(PathClass c) { return c == PathClass::PIX || c == PathClass::PXB; }

int find(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

struct Device {
  std::string busid;
  std::string pci_class;
  int numa = 0;
};

// PCI class codes NCCL reads: 3D controller (NVIDIA datacenter GPUs), display (AMD), and the
// NIC's network class by link layer.
std::string gpu_class(const Gpu& g) { return g.vendor == "amd" ? "0x038000" : "0x030200"; }
std::string nic_class(const RdmaNic& n) { return n.link_layer == "Ethernet" ? "0x020000" : "0x020700"; }

}  // namespace

std::string render_nccl_topo(const NodeInventory& node) {
  std::vector<Device> devices;
  for (const Gpu& g : node.gpus)
    devices.push_back({g.pci_busid, gpu_class(g), g.numa_node >= 0 ? g.numa_node : std::max(0, g.socket)});
  for (const RdmaNic& n : node.nics)
    devices.push_back({n.pci_busid, nic_class(n), n.numa_node >= 0 ? n.numa_node : std::max(0, n.socket)});
  const int gpus = static_cast<int>(node.gpus.size());
  std::vector<int> parent(devices.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto join = [&](int a, int b) { parent[find(parent, a)] = find(parent, b); };
  for (int g = 0; g < gpus; ++g) {
    for (size_t n = 0; g < static_cast<int>(node.gpu_nic.size()) && n < node.gpu_nic[g].size(); ++n)
      if (same_switch(node.gpu_nic[g][n])) join(g, gpus + static_cast<int>(n));
    for (size_t h = 0; g < static_cast<int>(node.gpu_gpu.size()) && h < node.gpu_gpu[g].size(); ++h)
      if (static_cast<int>(h) != g && same_switch(node.gpu_gpu[g][h])) join(g, static_cast<int>(h));
  }
  // NUMA node → groups (by their lowest busid) → devices (GPUs first, then NICs, PCI order).
  std::map<int, std::map<std::string, std::vector<int>>> numa;
  std::map<int, std::string> first;
  for (int i = 0; i < static_cast<int>(devices.size()); ++i) {
    const int root = find(parent, i);
    if (!first.count(root) || devices[i].busid < first[root]) first[root] = devices[i].busid;
  }
  for (int i = 0; i < static_cast<int>(devices.size()); ++i)
    numa[devices[find(parent, i)].numa][first[find(parent, i)]].push_back(i);
  std::ostringstream out;
  out << "<system version=\"1\">\n";
  int next_switch = 1;
  for (const auto& [id, groups] : numa) {
    out << "  <cpu numaid=\"" << id << "\">\n";
    for (const auto& [key, members] : groups) {
      std::string indent = "    ";
      if (members.size() > 1) {
        char busid[16];
        std::snprintf(busid, sizeof busid, "ffff:ff:%02x.0", next_switch++ & 0xff);
        out << indent << "<pci busid=\"" << busid << "\" class=\"0x060400\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\">\n";
        indent += "  ";
      }
      for (int i : members)
        out << indent << "<pci busid=\"" << devices[i].busid << "\" class=\"" << devices[i].pci_class << "\"/>\n";
      if (members.size() > 1) out << "    </pci>\n";
    }
    out << "  </cpu>\n";
  }
  out << "</system>\n";
  return out.str();
}

}  // namespace slurmtopo
