// libFuzzer harness: hwloc XML exports, through node discovery (libhwloc crashes are caught in a child).
#include "fuzz/fuzz_support.h"
#include "discover/hwloc_node.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::TempFile f(data, size, ".xml");
  fuzz::expect_value_or_input_error([&] { load_node_xml(f.path(), "node01"); });
  return 0;
}
