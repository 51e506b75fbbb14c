// libFuzzer harness: every text form of --fabric through its one entry (terminal capture
// stripping, refused forms, -s progress, then the -p, iblinkinfo or ibnetdiscover reader).
#include "fuzz/fuzz_support.h"
#include "discover/fabric_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_fabric_text(fuzz::as_text(data, size), "fuzz.txt"); });
  return 0;
}
