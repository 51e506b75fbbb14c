// gres.conf for GPUs, one line per GPU per node class:
//   NodeName=<hostlist> Name=gpu Type=<type> File=/dev/nvidiaN Cores=<ranges> [Links=...]
// File in Slurm index (= PCI bus id) order; Links only where the inventory has direct
// NVLink/XGMI counts (never on NVSwitch systems), -1 at the GPU's own index; Cores in Slurm's
// abstract core ids, adjusted to what the target Slurm version accepts (see CoreRule in
// slurm/release.h: 24.11.5's and 26.05.5's slurmd -G accept a GPU's own cores, their slurmctld
// refuses them at node registration, so 24.11+ get whole sockets; 22.05 keeps them as they are).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "discover/node_inventory.h"
#include "slurm/ranges.h"
#include "slurm/release.h"

namespace slurmtopo {

// The smallest Cores= list `rule` accepts that contains `cores` (Slurm core ids, socket-major,
// `sockets` × `cores_per_socket`). A GPU local to part of a socket (an SNC/NPS NUMA domain)
// widens to its whole socket; under OneSocketOrAll, one spanning two sockets widens to all.
// Empty stays empty (no locality known: Slurm then allows every core).
std::vector<int> slurm_cores(const std::vector<int>& cores, int sockets, int cores_per_socket, CoreRule rule);


struct GresLine {
  std::string type;             // "" → no Type=
  std::string file;             // "/dev/nvidia0"
  std::vector<int> cores;       // as emitted (after the version's rule); empty → no Cores=
  std::vector<int> local_cores; // as the inventory has them
  std::vector<int> links;       // empty → no Links=
};

struct ClassGres {
  std::string hostlist;
  std::vector<GresLine> gpus;       // Slurm index order
  std::vector<std::string> notes;   // what was adjusted and why (widened Cores, no Links, ...)
};

// `dev_dir` non-empty replaces the directory of every device file (test rigs whose fake
// devices are /dev/null symlinks in a temp dir; gres.conf File= paths may be anywhere).
ClassGres gres_for_class(const NodeInventory& representative, const std::string& hostlist, SlurmRelease version,
                         const std::string& dev_dir = "");

struct GresHeader {
  std::string command;   // how to regenerate the file
  std::string release;   // release_line(): "Slurm 24.11 (scontrol --version: slurm 24.11.5)"
};

// Deterministic: classes in the given order, one comment line per class, then its GPU lines.
std::string render_gres_conf(const std::vector<ClassGres>& classes, const GresHeader& header);

}  // namespace slurmtopo
