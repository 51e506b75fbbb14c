// libFuzzer harness: Slurm hostlist expressions (expand, then compress what came out).
#include "fuzz/fuzz_support.h"
#include "slurm/hostlist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] {
    auto names = expand_hostlist_at(fuzz::as_text(data, size), "fuzz", 1);
    // compress sorts (n log n comparisons of whole names): 10,000 names keeps one input well
    // inside the 10 s hang limit under ASan; expand alone is fuzzed up to its own limit.
    if (names.size() < 10000) compress_hostlist(names);
  });
  return 0;
}
