#include "emit/node_lines.h"

#include <algorithm>
#include <sstream>

#include "base/version.h"
#include "graph/node_join.h"

namespace slurmtopo {

uint64_t real_memory_mib(uint64_t total_mib) {
  if (total_mib == 0) return 0;
  uint64_t margin = std::max<uint64_t>(1024, total_mib / 100);
  if (total_mib <= margin) return total_mib;  // a tiny test node: no room for a margin
  return (total_mib - margin) / 1024 * 1024;
}

namespace {

// NICs NCCL's IB transport (verbs) can use; EFA and Slingshot go through the OFI plugin.
bool verbs_nic(const RdmaNic& nic) {
  return nic.link_layer.empty() || nic.link_layer == "InfiniBand" || nic.link_layer == "Ethernet";
}

}  // namespace

NodeLine node_line_for_class(const std::vector<const NodeInventory*>& hosts, const std::string& hostlist) {
  NodeLine line;
  line.hostlist = hostlist;
  if (hosts.empty()) return line;
  const NodeInventory& model = *hosts.front();
  line.sockets = model.sockets;
  line.cores_per_socket = model.cores_per_socket;
  line.threads_per_core = std::max(1, model.threads_per_core);
  line.cpus = line.sockets * line.cores_per_socket * line.threads_per_core;
  line.memory_mib = model.memory_mib;
  for (const NodeInventory* h : hosts) line.memory_mib = std::min(line.memory_mib, h->memory_mib);
  line.real_memory = real_memory_mib(line.memory_mib);
  for (const Gpu& g : model.gpus) {
    auto it = std::find_if(line.gres.begin(), line.gres.end(), [&](const auto& t) { return t.first == g.slurm_type; });
    if (it == line.gres.end()) line.gres.emplace_back(g.slurm_type, 1);
    else ++it->second;
  }
  for (const NicChoice& c : nearest_nics(model)) {
    if (c.nic < 0 || !verbs_nic(model.nics[c.nic])) continue;
    const std::string& name = model.nics[c.nic].name;
    if (std::find(line.nccl_hcas.begin(), line.nccl_hcas.end(), name) == line.nccl_hcas.end())
      line.nccl_hcas.push_back(name);
  }
  return line;
}

std::string gres_spec(const NodeLine& line) {
  std::string out;
  for (const auto& [type, n] : line.gres)
    out += (out.empty() ? "" : ",") + std::string("gpu:") + (type.empty() ? "" : type + ":") + std::to_string(n);
  return out;
}

std::string nccl_ib_hca_value(const std::vector<std::string>& names) {
  std::string out = "=";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + names[i];
  return out;
}

std::string render_node_lines(const std::vector<NodeLine>& lines, const NodeLinesHeader& header) {
  std::ostringstream out;
  out << "# slurm.conf node lines for Slurm " << header.slurm_version << ", written by slurmtopo " << slurmtopo_version();
  if (!header.command.empty()) out << ": " << header.command;
  out << "\n# RealMemory: the class's smallest MemTotal less 1 % (at least 1 GiB), down to a whole GiB,\n"
         "# so a kernel or firmware update that takes a little memory does not drain the nodes.\n";
  bool gpus = std::any_of(lines.begin(), lines.end(), [](const NodeLine& l) { return !l.gres.empty(); });
  if (gpus) out << "GresTypes=gpu\n";
  for (const NodeLine& l : lines) {
    out << "\n# " << l.hostlist << ": " << l.sockets << " socket" << (l.sockets == 1 ? "" : "s") << " x "
        << l.cores_per_socket << " cores x " << l.threads_per_core << " thread" << (l.threads_per_core == 1 ? "" : "s")
        << ", MemTotal " << l.memory_mib << " MiB (smallest host)\n";
    if (!l.nccl_hcas.empty())
      out << "# " << l.hostlist << ": NCCL_IB_HCA=" << nccl_ib_hca_value(l.nccl_hcas)
          << "  (nearest NIC of each GPU, in GPU order)\n";
    out << "NodeName=" << l.hostlist << " CPUs=" << l.cpus << " Sockets=" << l.sockets
        << " CoresPerSocket=" << l.cores_per_socket << " ThreadsPerCore=" << l.threads_per_core;
    if (l.real_memory) out << " RealMemory=" << l.real_memory;
    if (std::string g = gres_spec(l); !g.empty()) out << " Gres=" << g;
    out << "\n";
  }
  return out.str();
}

}  // namespace slurmtopo
