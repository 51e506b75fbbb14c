#include "base/malloc_tuning.h"

#include <malloc.h>

namespace slurmtopo {

void keep_freed_memory_for_reuse() { mallopt(M_TOP_PAD, 64 << 20); }

}  // namespace slurmtopo
