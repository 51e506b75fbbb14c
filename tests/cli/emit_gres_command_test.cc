// `slurmtopo emit gres` / `emit nodes` / `inspect --nodes-dir` as an admin runs them, on the
// bundled samples/nodes (64 DGX H100-like hosts of samples/superpod-4su.topo): output,
// atomic writes, refusals with exit 2 and nothing written.
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>

#include "discover/node_json.h"
#include "tests/cli/cli_test_support.h"
#include "tests/graph/node_fixtures.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

const std::string kSamples = std::string(SLURMTOPO_SOURCE_DIR) + "/samples";
const std::string kNodes = " --nodes-dir " + kSamples + "/nodes";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

int count(const std::string& s, const std::string& part) {
  int n = 0;
  for (size_t pos = s.find(part); pos != std::string::npos; pos = s.find(part, pos + 1)) ++n;
  return n;
}

// ../shared/nodes/psmgmt's exports copied into `dir` named by host (jrc0323.xml, ...), or
// false (skipped) when the checkout lacks them.
bool psmgmt_copies(const Scratch& s, const std::string& dir, const std::vector<std::string>& hosts) {
  const std::filesystem::path shared = std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "../shared/nodes/psmgmt";
  std::filesystem::create_directories(s.path(dir));
  for (const auto& h : hosts) {
    const std::filesystem::path from = shared / ("topo." + h + ".xml");
    if (!std::filesystem::exists(from)) {
      skip(from.string() + " is not available");
      return false;
    }
    std::filesystem::copy_file(from, s.path(dir + "/" + h + ".xml"));
  }
  return true;
}

}  // namespace

TEST_CASE("emit gres/nodes --nodes: only the listed hosts of the directory are written") {
  Scratch s;
  if (!psmgmt_copies(s, "nodes", {"jrc0323", "jrc0386", "jwb0001", "jwb0004"})) return;
  const std::string dir = " --nodes-dir " + s.path("nodes");
  Run g = run("emit gres" + dir + " --nodes 'jrc[0323,0386]'");
  REQUIRE(g.code == 0);
  CHECK(count(g.output, "NodeName=jrc[0323,0386] Name=gpu Type=a100") == 4);
  CHECK(!contains(g.output, "jwb"));
  Run n = run("emit nodes" + dir + " --nodes jwb0004");
  REQUIRE(n.code == 0);
  CHECK(contains(n.output, "NodeName=jwb0004 "));
  CHECK(!contains(n.output, "jrc"));
  CHECK(!contains(n.output, "jwb0001"));
  // A listed host without a file is still an error.
  Run missing = run("emit gres" + dir + " --nodes 'jrc[0323,0324]'");
  CHECK(missing.code == 2);
  CHECK(contains(missing.output, "1 host(s) in the node list have no <hostname>.xml/.json nor --node-class: jrc0324"));
}

TEST_CASE("emit nodes --nodes-dir: hosts that only number their mlx5 devices differently share the class's NCCL_IB_HCA") {
  // jrc0386 and jwb0001 call the NIC next to GPU 0 mlx5_1 where their peers call it mlx5_0: the
  // same NICs, the same NCCL_IB_HCA set, no class-layout warning.
  Scratch s;
  if (!psmgmt_copies(s, "nodes", {"jrc0323", "jrc0386", "jwb0001", "jwb0004"})) return;
  s.write("nodes/jrc0323.fabric.csv", "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n");  // collect's: silent
  Run r = run("emit nodes --nodes-dir " + s.path("nodes"));
  REQUIRE(r.code == 0);
  CHECK(!contains(r.output, "class-layout"));
  CHECK(!contains(r.output, "ignored"));
  CHECK(contains(r.output, "# jrc[0323,0386]: NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2,mlx5_3  (nearest rail NIC of each GPU, "
                           "in GPU order; the layout of 2 of 2 hosts)\n"));
  // jwb0001 comes first: its list, in its GPU order.
  CHECK(contains(r.output, "# jwb[0001,0004]: NCCL_IB_HCA==mlx5_1,mlx5_0,mlx5_3,mlx5_2  (nearest rail NIC of each GPU, "
                           "in GPU order; the layout of 2 of 2 hosts)\n"));
}

TEST_CASE("emit gres: one line per GPU for the sample's one class, no Links on NVSwitch") {
  Run r = run("emit gres" + kNodes);
  REQUIRE(r.code == 0);
  CHECK(count(r.output, "NodeName=dgx[001-064] Name=gpu Type=h100 File=/dev/nvidia") == 8);
  CHECK(contains(r.output, "NodeName=dgx[001-064] Name=gpu Type=h100 File=/dev/nvidia0 Cores=0-55\n"));
  CHECK(contains(r.output, "NodeName=dgx[001-064] Name=gpu Type=h100 File=/dev/nvidia7 Cores=56-111\n"));
  CHECK(!contains(r.output, "Links=-1"));
  // dgx010 numbers its NICs in another order (rails 2 and 3 crossed): the same NCCL_IB_HCA set,
  // so without the fabric nothing is wrong (with it, rail-leaf says so).
  CHECK(!contains(r.output, "class-layout"));
}

TEST_CASE("emit nodes: NodeName line, GresTypes, the class's NCCL_IB_HCA") {
  Run r = run("emit nodes" + kNodes);
  REQUIRE(r.code == 0);
  CHECK(contains(r.output, "GresTypes=gpu\n"));
  CHECK(contains(r.output, "NodeName=dgx[001-064] CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2 "
                           "RealMemory=2042880 Gres=gpu:h100:8\n"));
  CHECK(contains(r.output, "NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 "));
}

TEST_CASE("emit gres -o: atomic, deterministic, previous file kept as .bak") {
  Scratch s;
  Run a = run("emit gres" + kNodes + " -o " + s.path("gres.conf"));
  REQUIRE(a.code == 0);
  const std::string first = s.read("gres.conf");
  CHECK(contains(first, "Name=gpu"));
  Run b = run("emit gres" + kNodes + " -o " + s.path("gres.conf"));
  CHECK(b.code == 0);
  CHECK(contains(b.output, "unchanged: "));
  CHECK(s.read("gres.conf") == first);
  Run c = run("emit gres" + kNodes + " --slurm-version 25.11 -o " + s.path("gres.conf"));
  CHECK(c.code == 0);
  CHECK(s.read("gres.conf.bak") == first);
  CHECK(contains(s.read("gres.conf"), "# for Slurm 25.11 (--slurm-version 25.11)\n"));
}

TEST_CASE("emit gres: XE8640 class with NVLink, Cores widened for 25.11 and said so") {
  Scratch s;
  s.write("xe.json", node_to_json(xe8640_like("gpu001")));
  Run r = run("emit gres --node-class 'gpu[001-002]=" + s.path("xe.json") + "' --slurm-version 25.11");
  REQUIRE(r.code == 0);
  CHECK(contains(r.output, "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia0 Cores=0-55 Links=-1,6,6,6\n"));
  CHECK(contains(r.output, "NodeName=gpu[001-002] Name=gpu Type=h100 File=/dev/nvidia2 Cores=56-111 Links=6,6,-1,6\n"));
  CHECK(contains(r.output, "note: gpu[001-002]: Cores= widened for Slurm 25.11"));
  CHECK(contains(r.output, "warning: no-close-nic gpu[001-002]: no NIC within PXB: GPU 2 nearest is mlx5_3 (SYS)"));
  Run old = run("emit gres --node-class 'gpu[001-002]=" + s.path("xe.json") + "' --slurm-version 22.05");
  CHECK(contains(old.output, "File=/dev/nvidia0 Cores=42-55 Links=-1,6,6,6\n"));
}

TEST_CASE("emit gres --check: -1 at the wrong Links index is refused (exit 2), a good file passes") {
  Scratch s;
  s.write("xe.json", node_to_json(xe8640_like("gpu001")));
  const std::string cls = " --node-class 'gpu[001-002]=" + s.path("xe.json") + "'";
  REQUIRE(run("emit gres" + cls + " -o " + s.path("gres.conf")).code == 0);
  Run good = run("emit gres" + cls + " --check " + s.path("gres.conf"));
  CHECK(good.code == 0);
  CHECK(contains(good.output, "passes slurmd's rules"));
  std::string bad = s.read("gres.conf");
  bad.replace(bad.find("Links=6,-1,6,6"), 14, "Links=-1,6,6,6");
  s.write("bad.conf", bad);
  Run r = run("emit gres" + cls + " --check " + s.path("bad.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "bad.conf:7: gpu[001-002]: Links= of GPU 1 needs -1 at index 1"));
}

TEST_CASE("emit gres: bad input is exit 2 naming the file, nothing written") {
  Scratch s;
  std::filesystem::create_directory(s.path("nodes"));
  s.write("nodes/gpu001.json", node_to_json(dgx_like("gpu001", 0)));
  s.write("nodes/gpu002.json", "{\"format\": \"slurmtopo-node\",\n \"version\": 1,\n");
  Run r = run("emit gres --nodes-dir " + s.path("nodes") + " -o " + s.path("gres.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "gpu002.json"));
  CHECK(!s.exists("gres.conf"));

  Run v = run("emit gres" + kNodes + " --slurm-version 22 -o " + s.path("gres.conf"));
  CHECK(v.code == 2);
  CHECK(contains(v.output, "--slurm-version: expected a Slurm release as YY.MM"));
  CHECK(!s.exists("gres.conf"));

  Run none = run("emit nodes -o " + s.path("slurm.conf"));
  CHECK(none.code == 2);
  CHECK(contains(none.output, "expected --nodes-dir DIR and/or --node-class"));
  CHECK(!s.exists("slurm.conf"));
}

TEST_CASE("emit gres: a listed node without a file is an error, a warning with --allow-missing") {
  Scratch s;
  Run r = run("emit gres" + kNodes + " --nodes 'dgx[001-065]' -o " + s.path("gres.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "dgx065"));
  CHECK(!s.exists("gres.conf"));
  Run f = run("emit gres" + kNodes + " --nodes 'dgx[001-065]' --allow-missing -o " + s.path("gres.conf"));
  CHECK(f.code == 0);
  CHECK(contains(f.output, "dgx065"));
  CHECK(contains(s.read("gres.conf"), "NodeName=dgx[001-064]"));
}

TEST_CASE("emit nodes: refuses to drop most of the current file's nodes without --allow-missing") {
  Scratch s;
  REQUIRE(run("emit nodes" + kNodes + " -o " + s.path("nodes.conf")).code == 0);
  const std::string full = s.read("nodes.conf");
  const std::string two = " --node-class 'dgx[001-002]=" + kSamples + "/nodes/dgx001.json'";
  Run r = run("emit nodes" + two + " -o " + s.path("nodes.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "drops 62 of the 64 nodes"));
  CHECK(s.read("nodes.conf") == full);
  CHECK(run("emit nodes" + two + " --allow-missing -o " + s.path("nodes.conf")).code == 0);
  CHECK(contains(s.read("nodes.conf"), "NodeName=dgx[001-002] "));
}

TEST_CASE("emit gres --fabric: the join's findings are warnings, the file is still written") {
  Scratch s;
  Run r = run("emit gres" + kNodes + " --fabric " + kSamples + "/superpod-4su.topo -o " + s.path("gres.conf"));
  CHECK(r.code == 0);
  CHECK(contains(r.output, "warning: rail-leaf dgx005: GPU 3 → mlx5_3 (rail mlx5_3) → su2-rail3"));
  CHECK(s.exists("gres.conf"));
}

TEST_CASE("inspect --nodes-dir: GPU → NIC → rail → leaf, the miscabled rails reported") {
  Run r = run("inspect --fabric " + kSamples + "/superpod-4su.topo" + kNodes);
  REQUIRE(r.code == 0);
  CHECK(contains(r.output, "nodes: 64 hosts in 1 class, joined to the fabric by NIC GUID"));
  CHECK(contains(r.output, "  gpu  nic     path  rail    leaf       hosts\n"));
  CHECK(contains(r.output, "  0    mlx5_0  PIX   mlx5_0  su1-rail0  dgx[001-016]\n"));
  CHECK(contains(r.output, "  2    mlx5_3  PIX   mlx5_3  su1-rail3  dgx010\n"));
  CHECK(contains(r.output, "  3    mlx5_3  PIX   mlx5_3  su2-rail3  dgx[005,017-020,022-032]\n"));
  // The fabric's crossed cables (dgx005/dgx021) and dgx010's NIC order, GPU by GPU.
  CHECK(contains(r.output, "rail-leaf  dgx005: GPU 3 → mlx5_3 (rail mlx5_3) → su2-rail3; GPU 3 of the other hosts of su1 → su1-rail3"));
  CHECK(contains(r.output, "rail-leaf  dgx021: GPU 3 → mlx5_3"));
  CHECK(contains(r.output, "rail-leaf  dgx010: GPU 2 → mlx5_3 (rail mlx5_3) → su1-rail3; GPU 2 of the other hosts of su1 → su1-rail2"));
  CHECK(!contains(r.output, "class-layout"));  // the same NIC set, in another order: rail-leaf's to say

  Run j = run("inspect --json --fabric " + kSamples + "/superpod-4su.topo" + kNodes);
  REQUIRE(j.code == 0);
  CHECK(contains(j.output, "\"nodes\": {"));
  CHECK(contains(j.output, "\"kind\": \"rail-leaf\""));
  CHECK(run("inspect --json --fabric " + kSamples + "/superpod-4su.topo" + kNodes).output == j.output);
}

TEST_CASE("emit gres --check: GPU 0 bound to the wrong socket fails, as do Links that differ from the node's") {
  Scratch s;
  s.write("xe.json", node_to_json(xe8640_like("gpu001")));
  const std::string cls = " --node-class 'gpu[001-002]=" + s.path("xe.json") + "' --slurm-version 22.05";
  REQUIRE(run("emit gres" + cls + " -o " + s.path("gres.conf")).code == 0);
  std::string bad = s.read("gres.conf");
  REQUIRE(contains(bad, "File=/dev/nvidia0 Cores=42-55 "));
  bad.replace(bad.find("File=/dev/nvidia0 Cores=42-55"), 29, "File=/dev/nvidia0 Cores=0-13");
  s.write("socket.conf", bad);
  Run r = run("emit gres" + cls + " --check " + s.path("socket.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "socket.conf:6: gpu[001-002]: GPU 0 (File=/dev/nvidia0) Cores=0-13 but the GPU is local to cores "
                           "42-55: jobs would bind to the wrong cores"));
  std::string links = s.read("gres.conf");
  links.replace(links.find("Links=-1,6,6,6"), 14, "Links=-1,2,6,6");
  s.write("links.conf", links);
  r = run("emit gres" + cls + " --check " + s.path("links.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "GPU 0 (File=/dev/nvidia0) Links=-1,2,6,6 but the node's NVLink counts are -1,6,6,6"));
}

TEST_CASE("emit gres --check: Cores=0-111 for every GPU (a superset of each GPU's own) is a warning in every release") {
  // slurmd -G of 22.05, 24.11 and 26.05 takes it, and every release's slurmctld registers the
  // node (tests/integration/slurmd_gres_test.sh: "control: Cores=0-111 for every GPU").
  Scratch s;
  s.write("xe.json", node_to_json(xe8640_like("gpu001")));
  for (const char* version : {"22.05", "24.11", "25.11"}) {
    CAPTURE(version);
    const std::string cls = " --node-class 'gpu[001-002]=" + s.path("xe.json") + "' --slurm-version " + version;
    REQUIRE(run("emit gres" + cls + " -o " + s.path("gres.conf") + " --allow-missing").code == 0);
    std::string wide = s.read("gres.conf");
    for (size_t at = wide.find(" Cores="); at != std::string::npos; at = wide.find(" Cores=", at + 1)) {
      if (!std::isdigit(static_cast<unsigned char>(wide[at + 7]))) continue;  // the header's "Cores= are ..."
      wide.replace(at + 7, wide.find(' ', at + 7) - at - 7, "0-111");
    }
    REQUIRE(count(wide, "Cores=0-111 ") == 4);
    s.write("wide.conf", wide);
    Run r = run("emit gres" + cls + " --check " + s.path("wide.conf"));
    CHECK(r.code == 0);
    CHECK(count(r.output, "is more than the GPU's own cores") == 4);
    CHECK(contains(r.output, "gpu[001-002]: GPU 0 (File=/dev/nvidia0) Cores=0-111 is more than the GPU's own cores 42-55"));
    CHECK(contains(r.output, "slurmd accepts it, but jobs may be bound to cores far from the GPU"));
    CHECK(!contains(r.output, "error"));
  }
  // A list that misses some of the GPU's own cores is still an error.
  s.write("xe.json", node_to_json(xe8640_like("gpu001")));
  const std::string cls = " --node-class 'gpu[001-002]=" + s.path("xe.json") + "' --slurm-version 22.05";
  REQUIRE(run("emit gres" + cls + " -o " + s.path("gres.conf") + " --allow-missing").code == 0);
  std::string part = s.read("gres.conf");
  part.replace(part.find("File=/dev/nvidia0 Cores=42-55"), 29, "File=/dev/nvidia0 Cores=0-50");
  s.write("part.conf", part);
  Run r = run("emit gres" + cls + " --check " + s.path("part.conf"));
  CHECK(r.code == 2);
  CHECK(contains(r.output, "GPU 0 (File=/dev/nvidia0) Cores=0-50 but the GPU is local to cores 42-55"));
}

TEST_CASE("emit nodes --partition-topology: PartitionName lines with Topology=, only for 25.05+") {
  Run r = run("emit nodes" + kNodes + " --slurm-version 25.05 --partition-topology gpu=block --partition-topology debug=flat");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(contains(r.output, "\nPartitionName=gpu Nodes=ALL Topology=block\nPartitionName=debug Nodes=ALL Topology=flat\n"));
  Run old = run("emit nodes" + kNodes + " --slurm-version 24.11 --partition-topology gpu=block");
  CHECK(old.code == 2);
  CHECK(contains(old.output, "slurmtopo: --partition-topology: a partition's Topology= needs Slurm 25.05 or later (added in 25.05)"));
  Run bad = run("emit nodes" + kNodes + " --slurm-version 25.05 --partition-topology gpu");
  CHECK(bad.code == 2);
  CHECK(contains(bad.output, "expected PARTITION=TOPOLOGY (e.g. gpu=block), not \"gpu\""));
}

TEST_CASE("emit nccl-topo: one NCCL_TOPO_FILE per layout of each class, and the report says which hosts use it") {
  Scratch s;
  Run r = run("emit nccl-topo" + kNodes + " -o " + s.path("nccl"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  // dgx010's crossed rails are names, not PCIe: one file for the class.
  CHECK(contains(r.output, "dgx[001-064]: NCCL_TOPO_FILE=" + s.path("nccl") + "/dgx001.xml\n"));
  const std::string text = s.read("nccl/dgx001.xml");
  CHECK(contains(text, "Set NCCL_TOPO_FILE=" + s.path("nccl") + "/dgx001.xml in the jobs' environment on those nodes."));
  CHECK(contains(text, "<system version=\"1\">\n"));
  Run again = run("emit nccl-topo" + kNodes + " -o " + s.path("nccl"));
  CHECK(contains(again.output, "unchanged: " + s.path("nccl") + "/dgx001.xml"));
  Run bad = run("emit nccl-topo --nodes-dir " + s.path("nowhere") + " -o " + s.path("nccl2"));
  CHECK(bad.code == 2);
  CHECK_FALSE(std::filesystem::exists(s.path("nccl2")));
}

TEST_CASE("emit nccl-topo: a host of the class whose NIC sits on another switch gets its own file") {
  Scratch s;
  NodeInventory a = xe8640_like("gpu001"), b = xe8640_like("gpu002");
  for (auto& c : b.gpu_nic[0]) c = PathClass::SYS;  // GPU 0's NIC moved off its switch
  s.write("gpu001.json", node_to_json(a));
  s.write("gpu002.json", node_to_json(b));
  Run r = run("emit nccl-topo --nodes-dir " + s.path("") + " -o " + s.path("nccl"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(contains(r.output, "gpu001: NCCL_TOPO_FILE=" + s.path("nccl") + "/gpu001.xml\n"));
  CHECK(contains(r.output, "gpu002: NCCL_TOPO_FILE=" + s.path("nccl") + "/gpu002.xml\n"));
  CHECK(contains(s.read("nccl/gpu002.xml"), "NCCL topology for gpu002 (of class gpu[001-002])"));
}
