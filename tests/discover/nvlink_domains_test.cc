// NVLink domains as the GPUs report them: azslurm's domains file and nvidia-smi's CSV.
#include "discover/nvlink_domains.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "base/input_error.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {
const std::string kAzure = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/azure_cyclecloud/";

bool have(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  slurmtopo::testing::skip(path + " is absent (../shared is beside the repository in CI)");
  return false;
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("NVLink domains: azslurm's nodes_clusterUUIDs.txt, one ClusterUUID per host") {
  const std::string file = kAzure + "nodes_clusterUUIDs.txt";
  if (!have(file)) return;
  const NvlinkDomains d = load_nvlink_domains(file);
  REQUIRE(d.hosts.size() == 72);
  CHECK(d.hosts[0].host == "hpcbench-hpc-1");
  CHECK(d.hosts[0].line == 1);
  REQUIRE(d.hosts[0].gpus.size() == 1);
  CHECK(d.hosts[0].gpus[0].domain() == "5e797fc6-0f46-421a-8724-0e102c0f723c");
}

TEST_CASE("NVLink domains file: clique ids, N/A, and every malformed line at its line") {
  const NvlinkDomains d = parse_nvlink_domains(
      "# rack 1\nn1: 5E797FC6-0F46-421A-8724-0E102C0F723C.32766\nn2: N/A\nn3: 00000000-0000-0000-0000-000000000000\n", "d.txt");
  REQUIRE(d.hosts.size() == 3);
  CHECK(d.hosts[0].gpus[0].domain() == "5e797fc6-0f46-421a-8724-0e102c0f723c.32766");
  CHECK(d.hosts[1].gpus[0].domain().empty());
  CHECK(d.hosts[2].gpus[0].domain().empty());
  CHECK(error_of([] { parse_nvlink_domains("n1 5e797fc6-0f46-421a-8724-0e102c0f723c\n", "d.txt"); }) ==
        "d.txt:1: expected `HOST: CLUSTER_UUID[.CLIQUE_ID]`, got 'n1 5e797fc6-0f46-421a-8724-0e102c0f723c'");
  CHECK(error_of([] { parse_nvlink_domains("n1: 5e797fc6\n", "d.txt"); }) ==
        "d.txt:1: expected a ClusterUUID (8-4-4-4-12 hex digits) with an optional .CLIQUE_ID, or N/A, for n1, got '5e797fc6'");
  CHECK(error_of([] { parse_nvlink_domains("n1: N/A\n\nn1: N/A\n", "d.txt"); }) == "d.txt:3: host n1 is listed twice");
  CHECK(error_of([] { parse_nvlink_domains("bad name: N/A\n", "d.txt"); }).find("d.txt:1: expected a Slurm node name") == 0);
}

TEST_CASE("nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId: per GPU, and malformed output refused") {
  const auto gpus = parse_nvidia_smi_fabric(
      "fabric.clusterUuid, fabric.cliqueId\n5e797fc6-0f46-421a-8724-0e102c0f723c, 32766\n"
      "5e797fc6-0f46-421a-8724-0e102c0f723c, 32766\n[N/A], [N/A]\n",
      "n1.fabric.csv");
  REQUIRE(gpus.size() == 3);
  CHECK(gpus[0].domain() == "5e797fc6-0f46-421a-8724-0e102c0f723c.32766");
  CHECK(gpus[2].domain().empty());
  CHECK(error_of([] { parse_nvidia_smi_fabric("5e797fc6-0f46-421a-8724-0e102c0f723c, 1\nNVIDIA-SMI has failed\n", "n1.fabric.csv"); }) ==
        "n1.fabric.csv:2: expected `CLUSTER_UUID, CLIQUE_ID` as `nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId "
        "--format=csv,noheader` prints it, got 'NVIDIA-SMI has failed'");
  CHECK(error_of([] { parse_nvidia_smi_fabric("5e797fc6-0f46-421a-8724-0e102c0f723c, x\n", "f"); }).find("f:1:") == 0);
  CHECK(error_of([] { parse_nvidia_smi_fabric("5e797fc6-0f46-421a-8724-0e102c0f723c, 1, 2\n", "f"); }).find("f:1:") == 0);
}

TEST_CASE("NVLink domains from collect's directory of HOST.fabric.csv, in node order") {
  char tmpl[] = "/tmp/slurmtopo-nvl-XXXXXX";
  const std::filesystem::path dir = mkdtemp(tmpl);
  std::ofstream(dir / "n10.fabric.csv") << "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n";
  std::ofstream(dir / "n9.fabric.csv") << "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n";
  std::ofstream(dir / "n9.xml") << "<topology/>\n";
  const NvlinkDomains d = load_nvlink_domains(dir.string());
  REQUIRE(d.hosts.size() == 2);
  CHECK(d.hosts[0].host == "n9");
  CHECK(d.hosts[1].gpus[0].clique == "1");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  CHECK(error_of([&] { load_nvlink_domains(dir.string()); }).find("found none") != std::string::npos);
  std::filesystem::remove_all(dir);
}
