// libFuzzer harness: forwarding-table (LFT) dumps.
#include "fuzz/fuzz_support.h"
#include <sstream>
#include "simulate/network/forwarding_tables.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  std::istringstream in{std::string(fuzz::as_text(data, size))};
  fuzz::expect_value_or_input_error([&] { read_forwarding_tables(in, "fuzz.lft"); });
  return 0;
}
