// glibc's malloc hands freed memory back to the kernel early: the heap's free top is trimmed
// to 128 KiB. A collective prediction allocates and frees tens of MB of flow arrays per solve
// (on two threads, each with its own arena); given back each time, every page faults in again
// on the next solve, and on a VM a fault costs more than the arithmetic (BM_Predict1024Nodes,
// LFT walks: 48 ms → 18 ms; BM_Predict10000Placements unchanged).
#pragma once

namespace slurmtopo {

// Keeps 64 MiB of freed memory at the top of each heap for the next allocation (M_TOP_PAD).
// Call once, first thing in main, before any thread starts (slurmtopo's and the benchmarks'
// main do). Raising the mmap and trim thresholds instead was measured too: it helps the large
// prediction as much but slows the many small ones of a what-if by a quarter.
void keep_freed_memory_for_reuse();

}  // namespace slurmtopo
