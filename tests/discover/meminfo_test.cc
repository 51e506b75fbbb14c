// A live node's memory is what `slurmd -C` says on the same machine.
#include "discover/meminfo.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "discover/hwloc_node.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {
// RealMemory=N from `slurmd -C`; nullopt without slurmd.
std::optional<uint64_t> slurmd_real_memory() {
  if (!std::filesystem::exists("/usr/sbin/slurmd")) return std::nullopt;
  FILE* p = popen("/usr/sbin/slurmd -C 2>/dev/null", "r");
  std::string out;
  std::array<char, 512> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  pclose(p);
  const size_t at = out.find("RealMemory=");
  if (at == std::string::npos) return std::nullopt;
  return std::stoull(out.substr(at + 11));
}
}  // namespace

TEST_CASE("meminfo: MemTotal in MiB, kB / 1024 rounded down as slurmd does") {
  CHECK(memtotal_mib("MemTotal:       24683584 kB\nMemFree:        1 kB\n") == 24105u);
  CHECK(memtotal_mib("MemFree: 1 kB\nMemTotal: 2047 kB\n") == 1u);
  CHECK_FALSE(memtotal_mib("MemFree: 1 kB\n"));
  CHECK_FALSE(memtotal_mib("MemTotal: lots\n"));
}

TEST_CASE("meminfo: a live node's memory equals slurmd -C's RealMemory on this machine") {
  const auto slurmd = slurmd_real_memory();
  if (!slurmd) {
    return slurmtopo::testing::skip("no /usr/sbin/slurmd (slurmd -C is the reference)");
  }
  CHECK(local_memtotal_mib() == *slurmd);
  CHECK(discover_local_node().memory_mib == *slurmd);
}
