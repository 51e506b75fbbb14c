// libFuzzer harness: slurmtopo fabric snapshots (JSON).
#include "fuzz/fuzz_support.h"
#include "discover/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { snapshot_from_json(fuzz::as_text(data, size), "fuzz.json"); });
  return 0;
}
