// glibc's malloc hands freed memory back to the kernel early and grows the heap 4 KiB page by
// page. A collective prediction allocates and frees tens of MB of flow arrays per solve; given
// back each time, every page faults in again on the next solve (BM_Predict1024Nodes, LFT walks:
// 48 ms → 18 ms with the pad). An 8,192-HCA emit took 4,300 page faults, on a VM dearer than
// the parsing (docs/benchmarks.md).
#pragma once

namespace slurmtopo {

// Keeps 64 MiB of freed memory at the top of each heap for the next allocation (M_TOP_PAD),
// takes blocks up to 32 MiB from the heap rather than mmap, and asks for transparent huge pages
// on the main heap's first 64 MiB. Call once, first thing in main, before any thread starts
// (slurmtopo's and the benchmarks' main do). Measured against the pad alone: BM_Predict1024Nodes,
// BM_Predict10000Placements and BM_PlaceTree4096_NodesOnly unchanged within noise,
// BM_PipelineK64 477–524 → 264–359 ms.
void keep_freed_memory_for_reuse();

}  // namespace slurmtopo
