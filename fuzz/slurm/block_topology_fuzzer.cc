// libFuzzer harness: topology.conf BlockName=/BlockSizes= lines (topology/block).
#include "fuzz/fuzz_support.h"
#include "slurm/block_topology.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_block_topology(fuzz::as_text(data, size), "topology.conf"); });
  return 0;
}
