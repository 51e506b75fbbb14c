// What `slurmtopo discover classes` prints: each node class with its hosts and hardware
// signature, and per GPU its PCI bus id, Slurm Type, device file and path class to every NIC.
#pragma once

#include <string>

#include "discover/node_set.h"

namespace slurmtopo {

std::string node_classes_text(const NodeSet& set);

// "warning: WHO: W" lines (WHO empty: "warning: W"), for stderr.
std::string warning_lines(const std::string& who, const std::vector<std::string>& warnings);

}  // namespace slurmtopo
