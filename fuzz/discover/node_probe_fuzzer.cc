// libFuzzer harness: node probe records (collect's <node>.probe) and nvidia-smi -q text.
#include "fuzz/fuzz_support.h"
#include "discover/node_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_node_probe(fuzz::as_text(data, size), "node.probe"); });
  fuzz::expect_value_or_input_error([&] { parse_nvidia_smi_q(fuzz::as_text(data, size), "nvidia-smi-q.txt"); });
  return 0;
}
