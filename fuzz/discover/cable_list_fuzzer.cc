// libFuzzer harness: cabling plans as cable lists (CSV), and the list written back read again.
#include "fuzz/fuzz_support.h"
#include "discover/cable_list.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] {
    const CablePlan plan = parse_cable_list(fuzz::as_text(data, size), "fuzz.csv");
    // What the writer makes of any plan read is itself a plan the reader takes, cable for cable.
    const CablePlan back = parse_cable_list(cable_list_text(plan, "fuzz"), "back.csv");
    if (back.cables.size() != plan.cables.size()) __builtin_trap();
  });
  return 0;
}
