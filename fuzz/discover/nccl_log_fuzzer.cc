// libFuzzer harness: NCCL_DEBUG=INFO logs (discover/nccl_log.h), and the detection that picks
// the reader for a file's first lines.
#include "fuzz/fuzz_support.h"
#include "discover/nccl_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_nccl_log(fuzz::as_text(data, size), "job.log"); });
  (void)looks_like_nccl_log(fuzz::as_text(data, size));
  return 0;
}
