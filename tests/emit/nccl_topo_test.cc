// NCCL's topology XML for a node, against a real NCCL_TOPO_DUMP_FILE of the same kind of node
// (OCI BM.GPU.H100.8 in ../shared/nodes/nccl-topo: 8 H100, one ConnectX-7 on each GPU's PCIe
// switch, two NUMA nodes): the same NUMA nodes, the same GPUs per NUMA node, and each GPU
// sharing its switch with exactly one NIC.
#include "emit/nccl_topo.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>

#include "base/files.h"
#include "tests/graph/node_fixtures.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {
const std::string kOci = SLURMTOPO_SOURCE_DIR "/../shared/nodes/nccl-topo/oci-hpc/H100-topology.xml";

// Per <cpu>: per top-level <pci> under it (or a device directly under it), the number of GPUs
// (class 0x0302xx) and NIC functions' cards (class 0x02xxxx) it holds.
struct Shape {
  std::vector<std::vector<std::pair<int, int>>> cpus;  // cpu → top-level → (gpus, nics)
};

Shape shape(const std::string& xml) {
  Shape s;
  int depth = 0;  // <pci> nesting under the current cpu
  const std::regex tag(R"(<(/?)(cpu|pci)\b([^>]*?)(/?)>)");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), tag); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    const bool close = m[1] == "/", self = m[4] == "/";
    if (m[2] == "cpu") {
      if (!close) s.cpus.emplace_back();
      continue;
    }
    if (close) {
      --depth;
      continue;
    }
    if (depth == 0) s.cpus.back().push_back({0, 0});
    std::smatch cls;
    const std::string attrs = m[3];
    if (std::regex_search(attrs, cls, std::regex(R"(class="0x(\d\d)(\d\d))"))) {
      if (cls[1] == "03") ++s.cpus.back().back().first;
      if (cls[1] == "02") ++s.cpus.back().back().second;
    }
    if (!self) ++depth;
  }
  return s;
}
}  // namespace

TEST_CASE("nccl-topo: a DGX H100-like node has the shape of a real H100 NCCL topology dump") {
  const std::string ours = render_nccl_topo(dgx_like("dgx001", 0));
  CHECK(ours.rfind("<system version=\"1\">\n  <cpu numaid=\"0\">\n    <pci busid=\"ffff:ff:01.0\" class=\"0x060400\"", 0) == 0);
  CHECK(ours.find("<pci busid=\"0000:10:00.0\" class=\"0x030200\"/>") != std::string::npos);
  CHECK(ours.find("<pci busid=\"0000:9:00.0\" class=\"0x020700\"/>") != std::string::npos);
  const Shape s = shape(ours);
  REQUIRE(s.cpus.size() == 2);
  for (const auto& cpu : s.cpus) {
    CHECK(cpu.size() == 4);
    for (const auto& [gpus, nics] : cpu) CHECK((gpus == 1 && nics == 1));
  }
  if (!std::filesystem::exists(kOci)) {
    return slurmtopo::testing::skip(std::string("the comparison: ") + kOci + " is absent");
  }
  const Shape real = shape(read_file(kOci));
  REQUIRE(real.cpus.size() == s.cpus.size());
  for (size_t c = 0; c < real.cpus.size(); ++c) {
    std::map<int, int> gpus_real, gpus_ours;
    for (const auto& [g, n] : real.cpus[c])
      if (g) {
        ++gpus_real[g];
        CHECK(n == 1);  // the real switch holding a GPU holds one NIC card
      }
    for (const auto& [g, n] : s.cpus[c])
      if (g) ++gpus_ours[g];
    CHECK(gpus_ours == gpus_real);
  }
}

TEST_CASE("nccl-topo: GPUs on a switch of their own, NICs by link layer, same input same bytes") {
  NodeInventory x = xe8640_like("gpu001");
  const std::string a = render_nccl_topo(x);
  CHECK(a == render_nccl_topo(x));
  x.nics[0].link_layer = "Ethernet";
  CHECK(render_nccl_topo(x).find("class=\"0x020000\"") != std::string::npos);
  NodeInventory lone = dgx_like("n1", 0, 2);
  for (auto& row : lone.gpu_nic)
    for (auto& c : row) c = PathClass::SYS;
  for (auto& row : lone.gpu_gpu)
    for (auto& c : row) c = PathClass::SYS;
  CHECK(render_nccl_topo(lone).find("ffff:ff") == std::string::npos);
}
