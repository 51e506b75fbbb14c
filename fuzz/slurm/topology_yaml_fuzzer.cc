// libFuzzer harness: topology.yaml (25.05+).
#include "fuzz/fuzz_support.h"
#include "slurm/topology_yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_topology_yaml(fuzz::as_text(data, size), "topology.yaml"); });
  return 0;
}
