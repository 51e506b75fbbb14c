#include "base/malloc_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace slurmtopo {
namespace {

constexpr size_t kTopPad = 64u << 20;
constexpr uintptr_t kHugePage = 2u << 20;

// Grows the main heap by its pad now, so that the grown part can be advised: glibc extends the
// heap only when its free top runs short, so small blocks are taken until the break moves.
// Returns the grown range, or an empty one when it did not move (sbrk unusable).
std::pair<uintptr_t, uintptr_t> grow_heap_now() {
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  std::vector<void*> blocks;
  blocks.reserve(64);
  uintptr_t after = before;
  // 64 KiB: below the mmap threshold, so the blocks come from the heap; 64 of them exceed the
  // 132 KiB glibc starts the heap with, whatever static initialisation used of it.
  for (int i = 0; i < 64 && after == before; ++i) {
    blocks.push_back(std::malloc(64u << 10));
    after = reinterpret_cast<uintptr_t>(sbrk(0));
  }
  for (void* b : blocks) std::free(b);
  return {before, after};
}

}  // namespace

void keep_freed_memory_for_reuse() {
  mallopt(M_TOP_PAD, static_cast<int>(kTopPad));
  // Blocks up to 32 MiB (glibc's ceiling for this threshold) from the heap rather than from
  // mmap: a fabric's link and node arrays are a few MiB each, and an mmapped block is given
  // back when freed and faults in again on the next one.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // Transparent huge pages on the grown part of the heap (only where the admin's THP setting is
  // "madvise" or "always"; "never" ignores the advice). With 4 KiB pages an 8,192-HCA fabric's
  // emit took 4,300 page faults, on a VM dearer than the parsing; with 2 MiB pages 600.
  auto [from, to] = grow_heap_now();
  from = (from + kHugePage - 1) & ~(kHugePage - 1);
  to &= ~(kHugePage - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

}  // namespace slurmtopo
