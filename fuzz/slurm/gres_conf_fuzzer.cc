// libFuzzer harness: gres.conf and NodeName lines, as emit gres --check reads them.
#include "fuzz/fuzz_support.h"
#include "slurm/gres_conf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_gres_conf(fuzz::as_text(data, size), "gres.conf"); });
  fuzz::expect_value_or_input_error([&] { parse_node_conf(fuzz::as_text(data, size), "nodes.conf"); });
  return 0;
}
