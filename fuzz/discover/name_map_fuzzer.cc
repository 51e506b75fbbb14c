// libFuzzer harness: node-name-map and GUID map files.
#include "fuzz/fuzz_support.h"
#include "discover/name_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::TempFile f(data, size, ".map");
  fuzz::expect_value_or_input_error([&] { load_name_map(f.path()); });
  return 0;
}
