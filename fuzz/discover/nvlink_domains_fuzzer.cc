// libFuzzer harness: NVLink domain files (host: uuid[.clique]) and nvidia-smi fabric output.
#include "fuzz/fuzz_support.h"
#include "discover/nvlink_domains.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace slurmtopo;
  fuzz::expect_value_or_input_error([&] { parse_nvlink_domains(fuzz::as_text(data, size), "domains.txt"); });
  fuzz::expect_value_or_input_error([&] { parse_nvidia_smi_fabric(fuzz::as_text(data, size), "node.fabric.csv"); });
  return 0;
}
