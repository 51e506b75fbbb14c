// The benchmarks' main: Google Benchmark's, after the one process setting slurmtopo's own main
// makes (base/malloc_tuning.h), so that the figures are the CLI's.
#include <benchmark/benchmark.h>

#include "base/malloc_tuning.h"

int main(int argc, char** argv) {
  slurmtopo::keep_freed_memory_for_reuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
