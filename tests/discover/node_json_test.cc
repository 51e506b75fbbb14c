// NodeInventory <-> JSON: lossless, byte-stable, and strict with a line for every complaint.
#include "discover/node_json.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "base/version.h"
#include "tests/discover/hwloc_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {

InputError error_of(const std::string& text) {
  try {
    node_from_json(text, "node.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for:\n" << text);
  return InputError("", 0, "");
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

NodeInventory small_node() {
  NodeInventory n;
  n.hostname = "gpu01";
  n.source = "gpu01.xml";
  n.sockets = 2;
  n.cores_per_socket = 4;
  n.threads_per_core = 2;
  n.numa_nodes = 2;
  n.memory_mib = 515535;
  Gpu g;
  g.index = 0;
  g.vendor = "nvidia";
  g.model = "NVIDIA H100 80GB HBM3";
  g.slurm_type = "h100";
  g.pci_busid = "0000:4e:00.0";
  g.device_file = "/dev/nvidia0";
  g.cores = {0, 1, 2, 3};
  g.numa_node = 0;
  g.socket = 0;
  g.nvlinks = {-1, 6};
  n.gpus.push_back(g);
  g.index = 1;
  g.pci_busid = "0000:cb:00.0";
  g.device_file = "/dev/nvidia1";
  g.cores = {4, 5, 6, 7};
  g.numa_node = 1;
  g.socket = 1;
  g.nvlinks = {6, -1};
  n.gpus.push_back(g);
  RdmaNic nic;
  nic.name = "mlx5_0";
  nic.node_guid = 0x043f720300aea282ULL;
  nic.port_guids = {0x043f720300aea282ULL};
  nic.pci_busid = "0000:4d:00.0";
  nic.link_layer = "InfiniBand";
  nic.numa_node = 0;
  nic.socket = 0;
  n.nics.push_back(nic);
  n.gpu_nic = {{PathClass::PIX}, {PathClass::SYS}};
  n.gpu_gpu = {{PathClass::X, PathClass::SYS}, {PathClass::SYS, PathClass::X}};
  n.warnings = {"a warning"};
  return n;
}

}  // namespace

TEST_CASE("node_to_json: fixed shape") {
  const std::string j = node_to_json(small_node());
  CHECK(j.rfind("{\n \"format\": \"slurmtopo-node\",\n \"version\": 2,\n \"slurmtopo_version\": \"" + slurmtopo_version() +
                "\",\n \"hostname\": \"gpu01\",", 0) == 0);
  CHECK(j.find("\"node_guid\": \"0x043f720300aea282\"") != std::string::npos);
  CHECK(j.back() == '\n');
}

TEST_CASE("node_from_json: a file written before slurmtopo_version existed still reads — a non-string one does not") {
  std::string j = node_to_json(small_node());
  const std::string key = "\n \"slurmtopo_version\": \"" + slurmtopo_version() + "\",";
  REQUIRE(j.find(key) != std::string::npos);
  std::string old = j;
  old.erase(old.find(key), key.size());
  CHECK(node_from_json(old, "old.json").hostname == "gpu01");
  CHECK(node_from_json(j, "new.json").hostname == "gpu01");
  std::string bad = j;
  bad.replace(bad.find(key), key.size(), "\n \"slurmtopo_version\": 1,");
  CHECK_THROWS_AS(node_from_json(bad, "bad.json"), InputError);
}

TEST_CASE("node_from_json: version 1 files (before nvswitch_links) still read — each version has its own keys") {
  NodeInventory n = small_node();
  n.gpus[0].nvswitch_links = n.gpus[1].nvswitch_links = 18;
  const std::string v2 = node_to_json(n);
  CHECK(node_from_json(v2, "v2.json").gpus[1].nvswitch_links == 18);
  std::string v1 = v2;
  v1.replace(v1.find("\"version\": 2"), 12, "\"version\": 1");
  for (size_t at; (at = v1.find(",\n   \"nvswitch_links\": 18")) != std::string::npos;) v1.erase(at, 25);
  REQUIRE(v1.find("nvswitch_links") == std::string::npos);
  const NodeInventory old = node_from_json(v1, "v1.json");
  CHECK(old.gpus[0].nvswitch_links == 0);
  CHECK(old.gpus[1].nvlinks == std::vector<int>{6, -1});
  // A version 2 file without the key, or a version 1 file with it, is refused.
  std::string v2_without = v1;
  v2_without.replace(v2_without.find("\"version\": 1"), 12, "\"version\": 2");
  CHECK_THROWS_AS(node_from_json(v2_without, "v2.json"), InputError);
  std::string v1_with = v2;
  v1_with.replace(v1_with.find("\"version\": 2"), 12, "\"version\": 1");
  CHECK_THROWS_AS(node_from_json(v1_with, "v1.json"), InputError);
}

TEST_CASE("node_from_json: round trip of a hand-made node and of every real export") {
  const NodeInventory n = small_node();
  const std::string once = node_to_json(n);
  const NodeInventory back = node_from_json(once, "x.json");
  CHECK(node_to_json(back) == once);
  CHECK(back.hardware_signature() == n.hardware_signature());
  CHECK(back.gpus[1].nvlinks == std::vector<int>{6, -1});
  CHECK(back.gpu_nic[1][0] == PathClass::SYS);

  for (const char* file : {"flux-core/ipa20.xml", "flux-core/tuo.CPX.xml", "mpibind/eas-tioga.xml",
                           "hwloc/nvidiaDGX2.xml", "flux-core/sierra.xml", "psmgmt/topo.jsfc005.xml"}) {
    CAPTURE(file);
    auto inv = shared_node(file);
    if (!inv) continue;
    const std::string text = node_to_json(*inv);
    const NodeInventory again = node_from_json(text, file);
    CHECK(node_to_json(again) == text);
    CHECK(again.hardware_signature() == inv->hardware_signature());
    CHECK(again.warnings == inv->warnings);
  }
}

TEST_CASE("node_from_json: syntax errors name the line") {
  const std::string good = node_to_json(small_node());
  const InputError e = error_of(replace_once(good, "\"sockets\": 2,", "\"sockets\": 2"));
  CHECK(e.file() == "node.json");
  // "cores_per_socket", where a comma was due
  const std::string before = good.substr(0, good.find("\"cores_per_socket\""));
  CHECK(e.line() == 1 + std::count(before.begin(), before.end(), '\n'));
  CHECK(e.line() == 8);
  CHECK(std::string(e.what()).find("expected valid JSON") != std::string::npos);
}

TEST_CASE("node_from_json: schema errors name the line of the value") {
  const std::string good = node_to_json(small_node());
  auto line_of = [&](const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  };
  {
    const std::string bad = replace_once(good, "\"slurm_type\": \"h100\"", "\"slurm_type\": 7");
    const InputError e = error_of(bad);
    CHECK(e.line() == line_of(bad, "\"slurm_type\": 7"));
    CHECK(std::string(e.what()).find("\"slurm_type\" to be a string") != std::string::npos);
  }
  {
    const std::string bad = replace_once(good, "\"PIX\"", "\"NVL\"");
    const InputError e = error_of(bad);
    CHECK(e.line() == line_of(bad, "\"NVL\""));
    CHECK(std::string(e.what()).find("PIX, PXB, PHB, NODE, SYS") != std::string::npos);
  }
  {
    const std::string bad = replace_once(good, "\"format\": \"slurmtopo-node\"", "\"format\": \"slurmtopo-snapshot\"");
    CHECK(error_of(bad).line() == 2);
  }
  {
    const std::string bad = replace_once(good, "\"node_guid\": \"0x043f720300aea282\"", "\"node_guid\": \"043f\"");
    CHECK(std::string(error_of(bad).what()).find("GUID") != std::string::npos);
  }
  {
    const std::string bad = replace_once(good, "\"hostname\": \"gpu01\",", "\"hostname\": \"gpu01\", \"colour\": 1,");
    CHECK(std::string(error_of(bad).what()).find("not \"colour\"") != std::string::npos);
  }
  {
    // nvlinks must cover every GPU, and GPUs must be in index order.
    CHECK(std::string(error_of(replace_once(good, "-1,\n    6\n", "-1\n")).what()).find("one entry per GPU") !=
          std::string::npos);
    CHECK(std::string(error_of(replace_once(good, "\"index\": 1", "\"index\": 3")).what()).find("index order") !=
          std::string::npos);
  }
}

TEST_CASE("node_from_json: empty path-class matrices mean unknown") {
  NodeInventory n = small_node();
  n.gpu_nic.clear();
  n.gpu_gpu.clear();
  const NodeInventory back = node_from_json(node_to_json(n), "hand.json");
  REQUIRE(back.gpu_nic.size() == 2);
  CHECK(back.gpu_nic[1] == std::vector<PathClass>{PathClass::Unknown});
  CHECK(back.gpu_gpu[0] == std::vector<PathClass>{PathClass::X, PathClass::Unknown});  // a GPU is itself
  // A matrix that is there must fit.
  const std::string bad = replace_once(node_to_json(small_node()), "\"gpu_gpu\": [\n  [\n   \"X\",\n   \"SYS\"\n  ],",
                                       "\"gpu_gpu\": [");
  CHECK(std::string(error_of(bad).what()).find("one row per GPU") != std::string::npos);
}

TEST_CASE("node JSON: a GPU against itself is X, as nvidia-smi topo -m prints it, and older files' PIX there reads as X") {
  const std::string good = node_to_json(small_node());
  CHECK(good.find("\"gpu_gpu\": [\n  [\n   \"X\",\n   \"SYS\"\n  ],\n  [\n   \"SYS\",\n   \"X\"\n  ]") !=
        std::string::npos);
  const std::string old = replace_once(replace_once(good, "[\n   \"X\",", "[\n   \"PIX\","), "\"SYS\",\n   \"X\"",
                                       "\"SYS\",\n   \"PIX\"");
  REQUIRE(old != good);
  const NodeInventory back = node_from_json(old, "old.json");
  CHECK(back.gpu_gpu[0][0] == PathClass::X);
  CHECK(back.gpu_gpu[1][1] == PathClass::X);
  CHECK(node_to_json(back) == good);
  // X anywhere else says what X means.
  const InputError off = error_of(replace_once(good, "[\n   \"X\",\n   \"SYS\"", "[\n   \"X\",\n   \"X\""));
  CHECK(std::string(off.what()).find("X is a GPU against itself, only on the diagonal") != std::string::npos);
  const InputError nic = error_of(replace_once(good, "\"gpu_nic\": [\n  [\n   \"PIX\"", "\"gpu_nic\": [\n  [\n   \"X\""));
  CHECK(std::string(nic.what()).find("X is a device against itself") != std::string::npos);
}

TEST_CASE("load_node_json: missing file") {
  ScratchDir s;
  CHECK_THROWS_AS(load_node_json(s.path("absent.json")), InputError);
  const std::string p = s.write("n.json", node_to_json(small_node()));
  CHECK(load_node_json(p).hostname == "gpu01");
}
