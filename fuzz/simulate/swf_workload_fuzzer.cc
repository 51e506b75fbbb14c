// libFuzzer harness: Standard Workload Format traces.
#include "fuzz/fuzz_support.h"
#include "simulate/whatif/swf_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_swf(fuzz::as_text(data, size), "fuzz.swf", 64, 1024); });
  return 0;
}
