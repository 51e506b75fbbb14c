// The nodes section's model, per node class from its first host: the GPU↔NIC matrix as
// `nvidia-smi topo -m` prints it, each GPU's nearest NIC (graph/node_join.h) with its link
// layer, rail and leaf, cores per GPU, NCCL_IB_HCA and the NodeName line (emit/node_lines.h).
#include <algorithm>
#include <unordered_map>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

std::string summary(const NodeInventory& n) {
  std::string s = std::to_string(n.gpus.size()) + (n.gpus.size() == 1 ? " GPU" : " GPUs");
  if (!n.gpus.empty() && !n.gpus.front().slurm_type.empty()) s += " " + n.gpus.front().slurm_type;
  s += ", " + std::to_string(n.nics.size()) + (n.nics.size() == 1 ? " RDMA NIC, " : " RDMA NICs, ");
  s += std::to_string(n.sockets) + " × " + std::to_string(n.cores_per_socket) + " cores × " +
       std::to_string(n.threads_per_core) + " threads, " + std::to_string(n.memory_mib / 1024) + " GiB";
  return s;
}

// GPU–GPU: NV<links> when hwloc saw direct NVLinks; on an NVSwitch system NV<links into the
// switches> (the fewer of the two GPUs'), as nvidia-smi prints it; else the PCIe class; X on
// the diagonal.
std::string gpu_gpu(const NodeInventory& n, size_t g, size_t h) {
  if (g == h) return "X";
  if (g < n.gpus.size() && h < n.gpus[g].nvlinks.size() && n.gpus[g].nvlinks[h] > 0)
    return "NV" + std::to_string(n.gpus[g].nvlinks[h]);
  if (g < n.gpus.size() && h < n.gpus.size() && n.gpus[g].nvswitch_links > 0 && n.gpus[h].nvswitch_links > 0)
    return "NV" + std::to_string(std::min(n.gpus[g].nvswitch_links, n.gpus[h].nvswitch_links));
  if (g < n.gpu_gpu.size() && h < n.gpu_gpu[g].size()) return to_string(n.gpu_gpu[g][h]);
  return "-";
}

std::string gpu_nic(const NodeInventory& n, size_t g, size_t k) {
  if (g < n.gpu_nic.size() && k < n.gpu_nic[g].size()) return to_string(n.gpu_nic[g][k]);
  return "-";
}

}  // namespace

std::vector<ClassNodes> plan_class_nodes(const NodeSet& nodes, const NodeJoin& join, const GresPlan& gres) {
  std::unordered_map<size_t, const HostJoin*> join_of;
  for (const HostJoin& h : join.hosts) join_of[h.node] = &h;
  std::vector<ClassNodes> out;
  for (size_t k = 0; k < nodes.classes.size(); ++k) {
    const NodeClass& nc = nodes.classes[k];
    const NodeInventory& n = nodes.nodes[nc.representative];
    ClassNodes c;
    c.hostlist = nc.hostlist;
    c.host = n.hostname;
    c.summary = summary(n);
    for (const auto& g : n.gpus) c.gpus.push_back("GPU" + std::to_string(g.index));
    for (const auto& nic : n.nics) c.nics.push_back(nic.name);
    const size_t G = n.gpus.size(), N = n.nics.size();
    for (size_t r = 0; r < G + N; ++r) {
      std::vector<std::string> row;
      for (size_t col = 0; col < G + N; ++col) {
        if (r < G && col < G) row.push_back(gpu_gpu(n, r, col));
        else if (r < G) row.push_back(gpu_nic(n, r, col - G));
        else if (col < G) row.push_back(gpu_nic(n, col, r - G));
        else row.push_back(r == col ? "X" : "-");  // NIC–NIC: not in the inventory
      }
      c.matrix.push_back(std::move(row));
    }
    auto it = join_of.find(nc.representative);
    if (it != join_of.end())
      for (const GpuPath& p : it->second->gpus) {
        ClassNodes::Gpu g;
        g.index = p.gpu;
        g.nic = p.nic_name.empty() ? "-" : p.nic_name;
        g.path = to_string(p.path);
        g.link_layer = p.nic >= 0 && !n.nics[p.nic].link_layer.empty() ? n.nics[p.nic].link_layer : "-";
        g.rail = p.rail.empty() ? "-" : p.rail;
        for (const auto& l : p.leaves) g.leaves += (g.leaves.empty() ? "" : ",") + l;
        if (g.leaves.empty()) g.leaves = join.joined && p.nic >= 0 ? "(not in fabric)" : "-";
        g.cores = p.gpu < static_cast<int>(n.gpus.size()) ? static_cast<int>(n.gpus[p.gpu].cores.size()) : 0;
        c.per_gpu.push_back(g);
      }
    if (k < gres.node_lines.size()) {
      const NodeLine& line = gres.node_lines[k];
      c.nccl_ib_hca = line.nccl_hcas.empty() ? "" : nccl_ib_hca_value(line.nccl_hcas);
    }
    out.push_back(std::move(c));
  }
  // The NodeName= lines as rendered, one per class, in the same order.
  size_t next = 0;
  size_t pos = 0;
  const std::string& text = gres.nodes_text;
  while (pos < text.size() && next < out.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (text.compare(pos, 9, "NodeName=") == 0) out[next++].node_line = text.substr(pos, end - pos);
    pos = end + 1;
  }
  return out;
}

}  // namespace slurmtopo
