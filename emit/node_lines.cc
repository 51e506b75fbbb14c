#include "emit/node_lines.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "base/version.h"
#include "base/input_error.h"
#include "graph/node_join.h"
#include "slurm/hostlist.h"

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

// The NCCL_IB_HCA list of one host: the nearest usable NIC of each GPU, each NIC once. Where the
// host has InfiniBand ports, its Ethernet ports (RoCE storage or front-end links) are not rails:
// NCCL would send ring traffic onto another network, so they are left out before choosing.
std::vector<std::string> nccl_hcas(const NodeInventory& host) {
  const bool ib = std::any_of(host.nics.begin(), host.nics.end(), [](const RdmaNic& n) { return n.link_layer == "InfiniBand"; });
  NodeInventory rails = host;
  rails.nics.clear();
  for (auto& row : rails.gpu_nic) row.clear();
  for (size_t n = 0; n < host.nics.size(); ++n) {
    if (!verbs_nic(host.nics[n]) || (ib && host.nics[n].link_layer == "Ethernet")) continue;
    rails.nics.push_back(host.nics[n]);
    for (size_t g = 0; g < rails.gpu_nic.size() && g < host.gpu_nic.size(); ++g)
      if (n < host.gpu_nic[g].size()) rails.gpu_nic[g].push_back(host.gpu_nic[g][n]);
  }
  std::vector<std::string> out;
  for (const NicChoice& c : nearest_nics(rails)) {
    if (c.nic < 0) continue;
    const std::string& name = rails.nics[c.nic].name;
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
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
  // The set most hosts of the class need, and the hosts that differ. NCCL_IB_HCA is a set (NCCL
  // pairs each GPU with its nearest listed NIC itself): hosts that number their mlx5 devices in
  // another order need no other list. On a tie, the set of the host that comes first (the
  // model), as inspect's class-layout finding chooses (graph/node_join.cc); the list is
  // written in that host's GPU order.
  std::vector<std::vector<std::string>> lists, sets;
  std::map<std::vector<std::string>, std::vector<std::string>> layouts;
  for (const NodeInventory* h : hosts) {
    lists.push_back(nccl_hcas(*h));
    sets.push_back(lists.back());
    std::sort(sets.back().begin(), sets.back().end());
    layouts[sets.back()].push_back(h->hostname);
  }
  size_t first = 0;
  for (size_t i = 1; i < hosts.size(); ++i)
    if (layouts[sets[i]].size() > layouts[sets[first]].size()) first = i;
  line.nccl_hcas = lists[first];
  line.nccl_hosts = layouts[sets[first]].size();
  line.nccl_class_hosts = hosts.size();
  for (const auto& [set, names] : layouts)
    if (set != sets[first]) line.nccl_differ.insert(line.nccl_differ.end(), names.begin(), names.end());
  std::sort(line.nccl_differ.begin(), line.nccl_differ.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
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

std::string render_node_lines(const std::vector<NodeLine>& lines, const NodeLinesHeader& header,
                              const std::vector<PartitionTopology>& partitions) {
  std::ostringstream out;
  out << "# slurm.conf node lines written by slurmtopo " << slurmtopo_version();
  if (!header.command.empty()) out << ": " << header.command;
  out << "\n# for " << header.release << "\n# RealMemory: the class's smallest MemTotal less 1 % (at least 1 GiB), down to a whole GiB,\n"
         "# so a kernel or firmware update that takes a little memory does not drain the nodes.\n";
  bool gpus = std::any_of(lines.begin(), lines.end(), [](const NodeLine& l) { return !l.gres.empty(); });
  if (gpus && header.gres_types) out << "GresTypes=gpu\n";
  for (const NodeLine& l : lines) {
    out << "\n# " << l.hostlist << ": " << l.sockets << " socket" << (l.sockets == 1 ? "" : "s") << " x "
        << l.cores_per_socket << " cores x " << l.threads_per_core << " thread" << (l.threads_per_core == 1 ? "" : "s")
        << ", MemTotal " << l.memory_mib << " MiB (smallest host)\n";
    if (!l.nccl_hcas.empty()) {
      out << "# " << l.hostlist << ": NCCL_IB_HCA=" << nccl_ib_hca_value(l.nccl_hcas)
          << "  (nearest rail NIC of each GPU, in GPU order; the layout of " << l.nccl_hosts << " of "
          << l.nccl_class_hosts << (l.nccl_class_hosts == 1 ? " host" : " hosts");
      if (!l.nccl_differ.empty())
        out << "; " << compress_hostlist(l.nccl_differ) << (l.nccl_differ.size() == 1 ? " differs" : " differ");
      out << ")\n";
    }
    std::vector<std::pair<std::string, std::string>> groups = l.kept;
    if (groups.empty()) groups.emplace_back(l.hostlist, "");
    for (const auto& [hostlist, kept] : groups) {
      out << "NodeName=" << hostlist << " CPUs=" << l.cpus << " Sockets=" << l.sockets
          << " CoresPerSocket=" << l.cores_per_socket << " ThreadsPerCore=" << l.threads_per_core;
      if (l.real_memory) out << " RealMemory=" << l.real_memory;
      if (std::string g = gres_spec(l); !g.empty()) out << " Gres=" << g;
      if (!kept.empty()) out << " " << kept;
      out << "\n";
    }
  }
  if (!partitions.empty()) {
    out << "\n# Partitions and the topology.yaml topology each places jobs by (Topology=, 25.05+)\n";
    for (const auto& p : partitions)
      out << "PartitionName=" << p.partition << " Nodes=ALL Topology=" << p.topology << "\n";
  }
  return out.str();
}

std::vector<PartitionTopology> parse_partition_topology(const std::vector<std::string>& specs, SlurmRelease release) {
  std::vector<PartitionTopology> out;
  if (specs.empty()) return out;
  require_release(release, TopologyForm::PartitionTopology, "--partition-topology", "--slurm-version " + to_string(release));
  auto name = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
  };
  for (const auto& spec : specs) {
    const size_t eq = spec.find('=');
    PartitionTopology p;
    if (eq != std::string::npos) p = {spec.substr(0, eq), spec.substr(eq + 1)};
    if (!name(p.partition) || !name(p.topology))
      throw InputError("--partition-topology", 0, "expected PARTITION=TOPOLOGY (e.g. gpu=block), not \"" + spec + "\"");
    out.push_back(p);
  }
  return out;
}

}  // namespace slurmtopo
