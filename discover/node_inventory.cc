#include "discover/node_inventory.h"

#include <sstream>

#include "slurm/ranges.h"

namespace slurmtopo {
const char* to_string(PathClass c) {
  switch (c) {
    case PathClass::PIX: return "PIX";
    case PathClass::PXB: return "PXB";
    case PathClass::PHB: return "PHB";
    case PathClass::NODE: return "NODE";
    case PathClass::SYS: return "SYS";
    case PathClass::X: return "X";
    case PathClass::Unknown: break;
  }
  return "UNKNOWN";
}

// Only what a NodeName= or gres.conf line is made of: CPU counts, RealMemory (to the GiB, so
// a few MiB the kernel reserves differently do not split a class), and per GPU in Slurm
// order its Type, File, Cores and Links. Hostnames, GUIDs, bus ids, mlx5_N names and NICs
// (none appears in those lines) are left out on purpose.
std::string NodeInventory::hardware_signature() const {
  std::ostringstream s;
  s << "sockets=" << sockets << " cores_per_socket=" << cores_per_socket
    << " threads_per_core=" << threads_per_core << " memory_gib=" << memory_mib / 1024
    << " gpus=" << gpus.size();
  for (const Gpu& g : gpus) {
    s << " | " << (g.slurm_type.empty() ? "?" : g.slurm_type) << ' ' << g.device_file << " cores="
      << format_ranges(g.cores);
    if (!g.nvlinks.empty()) {
      s << " links=";
      for (size_t i = 0; i < g.nvlinks.size(); ++i) s << (i ? "," : "") << g.nvlinks[i];
    }
  }
  return s.str();
}

}  // namespace slurmtopo
