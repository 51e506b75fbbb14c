// libFuzzer harness: the port counters files (--counters), through the entry that recognises
// the form by content: ibqueryerrors, perfquery and ibdiagnet2.pm output.
#include "fuzz/fuzz_support.h"
#include "discover/counters_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_counters_text(fuzz::as_text(data, size), "fuzz.counters"); });
  return 0;
}
