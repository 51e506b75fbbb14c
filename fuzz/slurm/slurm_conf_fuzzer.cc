// libFuzzer harness: slurm.conf (NodeName lines, Include).
#include "fuzz/fuzz_support.h"
#include "slurm/slurm_conf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::TempFile f(data, size, ".conf");
  fuzz::expect_value_or_input_error([&] { load_slurm_conf(f.path()); });
  return 0;
}
