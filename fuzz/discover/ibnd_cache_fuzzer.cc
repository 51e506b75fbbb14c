// libFuzzer harness: libibnetdisc cache files (binary).
#include "fuzz/fuzz_support.h"
#include "discover/ibnd_cache.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::TempFile f(data, size, ".cache");
  fuzz::expect_value_or_input_error([&] { load_ibnd_cache(f.path()); });
  return 0;
}
