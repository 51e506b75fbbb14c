// `slurmtopo discover node|classes` and `slurmtopo collect --dry-run`, run as an admin would.
#include <doctest/doctest.h>

#include <filesystem>

#include "discover/hwloc_node.h"
#include "discover/node_json.h"
#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

const std::filesystem::path kNodes = std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "../shared/nodes";

bool have(const std::string& rel) {
  if (std::filesystem::exists(kNodes / rel)) return true;
  slurmtopo::testing::skip((kNodes / rel).string() + " is not available");
  return false;
}

}  // namespace

TEST_CASE("slurmtopo discover node --xml: JSON to a file, warnings to stderr") {
  if (!have("flux-core/sierra.xml")) return;
  Scratch s;
  const std::string xml = (kNodes / "flux-core/sierra.xml").string();
  const auto r = run("discover node --xml " + xml + " --hostname sierra1 -o " + s.path("sierra1.json"));
  CHECK(r.code == 0);
  CHECK(r.output.find("warning: sierra1: export has no PCI bridges") != std::string::npos);
  const slurmtopo::NodeInventory n = slurmtopo::node_from_json(s.read("sierra1.json"), "sierra1.json");
  CHECK(n.hostname == "sierra1");
  CHECK(n.gpus.size() == 4);
  CHECK(s.read("sierra1.json") == slurmtopo::node_to_json(slurmtopo::load_node_xml(xml, "sierra1")));
}

TEST_CASE("slurmtopo discover node --xml h200-vm: a VM's flat PCI tree said as such, X on the GPU-GPU diagonal") {
  if (!have("measured/h200-vm/h200-vm.xml")) return;
  Scratch s;
  const auto r = run("discover node --xml " + (kNodes / "measured/h200-vm/h200-vm.xml").string() + " -o " + s.path("vm.json"));
  CHECK(r.code == 0);
  CHECK(r.output.find("warning: vm: export has no PCI bridges: its PCI tree is flat (hwloc 2.9.0; ") != std::string::npos);
  CHECK(r.output.find("1.11") == std::string::npos);
  const std::string json = s.read("vm.json");
  CHECK(json.find("\"gpu_gpu\": [\n  [\n   \"X\"\n  ]\n ]") != std::string::npos);  // one GPU: itself
}

TEST_CASE("slurmtopo discover node: a damaged export with no cores per socket exits 2 with its line, writes nothing") {
  Scratch s;
  const std::string bad = (std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "tests/bad/hwloc/package-without-cores.xml").string();
  const auto r = run("discover node --xml " + bad + " -o " + s.path("out.json"));
  CHECK(r.code == 2);
  CHECK(r.output.find(bad + ":5: expected each package to hold cores") != std::string::npos);
  CHECK_FALSE(s.exists("out.json"));
}

TEST_CASE("slurmtopo discover node: bad XML exits 2 and writes nothing") {
  Scratch s;
  const std::string bad = s.write("v3.xml", "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n</topology>\n");
  const auto r = run("discover node --xml " + bad + " -o " + s.path("out.json"));
  CHECK(r.code == 2);
  CHECK(r.output.find("v3.xml:2: hwloc 2.9 cannot read XML format 3.0") != std::string::npos);
  CHECK_FALSE(s.exists("out.json"));
}

TEST_CASE("slurmtopo discover classes: node classes, and a listed node without a file") {
  if (!have("flux-core/ipa20.xml")) return;
  const std::string xml = (kNodes / "flux-core/ipa20.xml").string();
  auto r = run("discover classes --node-class 'h[1-4]=" + xml + "'");
  CHECK(r.code == 0);
  CHECK(r.output.find("h[1-4] (4 nodes): sockets=2 cores_per_socket=56") != std::string::npos);
  CHECK(r.output.find("gpu0 0000:4e:00.0 h100 /dev/nvidia0  NICs: mlx5_0=PIX mlx5_1=PIX mlx5_2=SYS mlx5_3=SYS") !=
        std::string::npos);
  r = run("discover classes --node-class 'h[1-4]=" + xml + "' --nodes 'h[1-6]'");
  CHECK(r.code == 2);
  CHECK(r.output.find("h[5-6]") != std::string::npos);
  r = run("discover classes --node-class 'h[1-4]=" + xml + "' --nodes 'h[1-6]' --allow-missing");
  CHECK(r.code == 0);
  CHECK(r.output.find("warning: 2 host(s) in the node list have no") != std::string::npos);
}

TEST_CASE("slurmtopo collect --dry-run prints the srun line and an sbatch script") {
  const auto r = run("collect --nodes 'gpu[01-16]' -o /shared/topo --dry-run");
  CHECK(r.code == 0);
  CHECK(r.output.find("srun --job-name=slurmtopo-collect '--nodelist=gpu[01-16]' --nodes=16 --ntasks=16") !=
        std::string::npos);
  CHECK(r.output.find("#SBATCH --nodelist=gpu[01-16]") != std::string::npos);
  CHECK(run("collect --nodes 'gpu[01-' -o /x --dry-run").code == 2);
}
