// glibc's malloc hands freed memory back to the kernel early: an allocation above 128 KiB
// (rising towards 32 MiB as it adapts) is its own mmap, and the heap's free top is trimmed
// past 128 KiB. A collective prediction allocates and frees tens of MB of flow arrays per
// solve; given back each time, every page faults in again on the next solve, and on a VM a
// fault costs more than the arithmetic (BM_Predict1024Nodes, LFT walks: 50 ms → 16 ms).
#pragma once

namespace slurmtopo {

// Keeps freed memory in the process for the next allocation: allocations up to 32 MiB come
// from the heap, and the heap is trimmed only past 1 GiB free. Call once, first thing in
// main, before any thread starts (slurmtopo's and the benchmarks' main do).
void keep_freed_memory_for_reuse();

}  // namespace slurmtopo
