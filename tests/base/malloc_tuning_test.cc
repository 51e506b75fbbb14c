#include "base/malloc_tuning.h"

#include <doctest/doctest.h>
#include <malloc.h>

#include <cstring>
#include <memory>
#include <vector>

using namespace slurmtopo;

// Under ASan malloc is the sanitizer's own (mallopt does nothing, mallinfo2 says nothing).
#if defined(__SANITIZE_ADDRESS__)
#define SLURMTOPO_GLIBC_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLURMTOPO_GLIBC_MALLOC 0
#endif
#endif
#ifndef SLURMTOPO_GLIBC_MALLOC
#define SLURMTOPO_GLIBC_MALLOC 1
#endif

TEST_CASE("keep_freed_memory_for_reuse: 16 MiB freed at the top of the heap stays there for the next allocations") {
  keep_freed_memory_for_reuse();
  if (!SLURMTOPO_GLIBC_MALLOC) return;  // the sanitizer build: glibc's malloc is not in use
  // 64 KiB blocks come from the heap (below the mmap threshold); freed together they form its
  // top, which glibc would trim back to 128 KiB.
  constexpr size_t kBlock = 64 << 10, kBlocks = 256;
  std::vector<std::unique_ptr<char[]>> blocks;
  for (size_t i = 0; i < kBlocks; ++i) {
    blocks.push_back(std::make_unique<char[]>(kBlock));
    std::memset(blocks.back().get(), 1, kBlock);
  }
  blocks.clear();
  CHECK(mallinfo2().fordblks >= kBlock * kBlocks);
}
