// libFuzzer harness: Slurm hostlist expressions (expand, then compress what came out).
#include "fuzz/fuzz_support.h"
#include "slurm/hostlist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] {
    auto names = expand_hostlist_at(fuzz::as_text(data, size), "fuzz", 1);
    if (names.size() < 100000) compress_hostlist(names);
  });
  return 0;
}
