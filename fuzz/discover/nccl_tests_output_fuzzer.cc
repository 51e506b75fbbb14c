// libFuzzer harness: nccl-tests stdout (all_reduce_perf and the other *_perf programs), with the
// srun labels, NCCL_DEBUG lines and cut last lines the reader takes as they come.
#include "fuzz/fuzz_support.h"
#include "discover/nccl_tests_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::expect_value_or_input_error([&] {
    for (const NcclTestsRun& run : parse_nccl_tests_output(text, "all_reduce_perf.out"))
      nccl_tests_bus_factor(run.collective, run.ranks());
  });
  looks_like_nccl_tests_output(text);
  return 0;
}
