#include "base/malloc_tuning.h"

#include <malloc.h>

namespace slurmtopo {

void keep_freed_memory_for_reuse() {
  // 32 MiB is the largest mmap threshold glibc takes on 64-bit (half its arena heap size).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace slurmtopo
