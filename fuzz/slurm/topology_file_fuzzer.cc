// libFuzzer harness: topology.conf, tree or block, as place and whatif read it.
#include "fuzz/fuzz_support.h"
#include "slurm/topology_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_topology_file(fuzz::as_text(data, size), "fuzz.conf"); });
  return 0;
}
