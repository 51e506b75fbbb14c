#include "report/node_classes_report.h"

#include <sstream>

namespace slurmtopo {

std::string node_classes_text(const NodeSet& set) {
  std::ostringstream out;
  for (const NodeClass& c : set.classes) {
    const NodeInventory& n = set.nodes[c.representative];
    out << c.hostlist << " (" << c.hosts.size() << " node" << (c.hosts.size() == 1 ? "" : "s") << "): " << c.signature
        << "\n";
    for (const Gpu& g : n.gpus) {
      out << "  gpu" << g.index << " " << g.pci_busid << " " << (g.slurm_type.empty() ? "?" : g.slurm_type) << " "
          << g.device_file << "  NICs:";
      for (size_t k = 0; k < n.nics.size(); ++k) out << " " << n.nics[k].name << "=" << to_string(n.gpu_nic[g.index][k]);
      out << "\n";
    }
  }
  return out.str();
}

std::string warning_lines(const std::string& who, const std::vector<std::string>& warnings) {
  std::string out;
  for (const auto& w : warnings) out += "warning: " + who + (who.empty() ? "" : ": ") + w + "\n";
  return out;
}

}  // namespace slurmtopo
