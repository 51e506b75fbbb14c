#include "base/malloc_tuning.h"

#include <doctest/doctest.h>
#include <malloc.h>

#include <cstring>
#include <memory>

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

TEST_CASE("keep_freed_memory_for_reuse: a freed 16 MiB block stays in the heap for the next one") {
  keep_freed_memory_for_reuse();
  if (!SLURMTOPO_GLIBC_MALLOC) return;  // the sanitizer build: glibc's malloc is not in use
  constexpr size_t kBlock = 16 << 20;
  const size_t mapped_before = mallinfo2().hblkhd;
  auto block = std::make_unique<char[]>(kBlock);
  std::memset(block.get(), 1, kBlock);
  // From the heap, not a mapping of its own (glibc's default would mmap it).
  CHECK(mallinfo2().hblkhd == mapped_before);
  block.reset();
  // Freed, and kept: not trimmed back to the kernel.
  CHECK(mallinfo2().fordblks >= kBlock);
}
