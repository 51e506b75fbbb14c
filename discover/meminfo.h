// A live node's memory as `slurmd -C` reports it: /proc/meminfo's MemTotal in MiB (kB / 1024,
// rounded down, as slurmd computes RealMemory), not hwloc's NUMA memory — on a VM or in a
// container the two differ by gigabytes (6144 against slurmd's 24105 on the 24 GiB test VM),
// and a RealMemory above what slurmd reports drains the node ("Low RealMemory").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace slurmtopo {

// MemTotal of a /proc/meminfo text in MiB; nullopt without a `MemTotal: N kB` line.
std::optional<uint64_t> memtotal_mib(std::string_view meminfo);

// This machine's, from /proc/meminfo; nullopt where it cannot be read.
std::optional<uint64_t> local_memtotal_mib();

}  // namespace slurmtopo
