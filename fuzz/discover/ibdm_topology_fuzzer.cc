// libFuzzer harness: cabling plans as ibdm topology files (ibdiagnet -t), and the plan name map.
#include "fuzz/fuzz_support.h"
#include "discover/ibdm_topology.h"
#include "discover/plan_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::expect_value_or_input_error([&] { parse_ibdm_topology(text, "fuzz.topo"); });
  // The same bytes as a plan file (recognised by content) and as a plan name map.
  fuzz::TempFile f(data, size, ".plan");
  fuzz::expect_value_or_input_error([&] { read_plan_file(f.path()); });
  fuzz::expect_value_or_input_error([&] { load_plan_name_map(f.path()); });
  return 0;
}
