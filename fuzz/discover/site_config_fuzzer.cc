// libFuzzer harness: site.yaml.
#include "fuzz/fuzz_support.h"
#include "discover/site_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::TempFile f(data, size, ".yaml");
  fuzz::expect_value_or_input_error([&] { load_site_config(f.path()); });
  return 0;
}
