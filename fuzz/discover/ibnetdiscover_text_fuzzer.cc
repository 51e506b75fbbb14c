// libFuzzer harness: ibnetdiscover topology text.
#include "fuzz/fuzz_support.h"
#include "discover/ibnetdiscover_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_ibnetdiscover_text(fuzz::as_text(data, size), "fuzz.topo"); });
  return 0;
}
