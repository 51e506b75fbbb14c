// libFuzzer harness: iblinkinfo output (default, -l, --switches-only forms).
#include "fuzz/fuzz_support.h"
#include "discover/iblinkinfo_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_iblinkinfo_text(fuzz::as_text(data, size), "fuzz.iblinkinfo"); });
  return 0;
}
