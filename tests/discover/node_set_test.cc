// A cluster's nodes from files: --nodes-dir, --node-class, node classes, and what happens when
// a listed node has no file.
#include "discover/node_set.h"

#include <doctest/doctest.h>

#include "discover/node_json.h"
#include "tests/discover/hwloc_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;
using V = std::vector<std::string>;

namespace {

std::string what_of(const NodeSources& s) {
  try {
    load_node_set(s);
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no InputError");
  return "";
}

}  // namespace

TEST_CASE("load_node_set: a directory of exports groups into classes") {
  auto jrc = shared_node_file("psmgmt/topo.jrc0323.xml");
  auto jrc2 = shared_node_file("psmgmt/topo.jrc0386.xml");
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!jrc || !jrc2 || !ipa) return;
  ScratchDir s;
  // Two JURECA-DC nodes (different mlx5 numbering, same hardware), two XE8640s, one as JSON.
  s.write("nodes/jrc0323.xml", read_text(*jrc));
  s.write("nodes/jrc0386.xml", read_text(*jrc2));
  s.write("nodes/h100-10.xml", read_text(*ipa));
  s.write("nodes/h100-9.json", node_to_json(load_node_xml(*ipa, "h100-9")));
  s.write("nodes/slurmtopo-collect-12.log", "srun: job 12 queued\n");

  NodeSources src;
  src.nodes_dir = s.path("nodes");
  src.threads = 3;
  const NodeSet set = load_node_set(src);
  // Natural order: h100-9 before h100-10.
  std::vector<std::string> hosts;
  for (const auto& n : set.nodes) hosts.push_back(n.hostname);
  CHECK(hosts == V{"h100-9", "h100-10", "jrc0323", "jrc0386"});
  REQUIRE(set.classes.size() == 2);
  CHECK(set.classes[0].hostlist == "h100-[9-10]");
  CHECK(set.classes[0].hosts == V{"h100-9", "h100-10"});
  CHECK(set.nodes[set.classes[0].representative].hostname == "h100-9");
  CHECK(set.classes[1].hostlist == "jrc[0323,0386]");
  CHECK(set.classes[1].signature == set.nodes[2].hardware_signature());
  // The JSON says "h100-9" too; the .log is ignored, and that is said.
  bool log_noted = false;
  for (const auto& w : set.warnings) log_noted |= w.find("without .xml/.json ignored") != std::string::npos;
  CHECK(log_noted);
  CHECK(set.missing.empty());
}

TEST_CASE("load_node_set: nvidia-smi's XML beside an hwloc export is ignored and said, a broken hwloc XML is not") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  s.write("nodes/h100-1.xml", read_text(*ipa));
  s.write("nodes/nvidia-smi-q.xml",
          "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v13.dtd\">\n<nvidia_smi_log>\n"
          "</nvidia_smi_log>\n");
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  const NodeSet set = load_node_set(src);
  REQUIRE(set.nodes.size() == 1);
  CHECK(set.nodes[0].hostname == "h100-1");
  bool noted = false;
  for (const auto& w : set.warnings) noted |= w.find("nvidia-smi-q.xml: nvidia-smi -q -x output, not an hwloc export: ignored") != std::string::npos;
  CHECK(noted);
  s.write("nodes/ndv5-topo.xml", "<!-- NCCL_TOPO_FILE -->\n<system version=\"1\">\n  <cpu numaid=\"0\"/>\n</system>\n");
  bool nccl = false;
  for (const auto& w : load_node_set(src).warnings)
    nccl |= w.find("ndv5-topo.xml: an NCCL topology file (NCCL_TOPO_FILE), not an hwloc export: ignored") != std::string::npos;
  CHECK(nccl);
  s.write("nodes/h100-2.xml", "<?xml version=\"1.0\"?>\n<notatopology/>\n");
  CHECK(what_of(src).find("h100-2.xml") != std::string::npos);
}

TEST_CASE("load_node_set: --node-class for identical hosts, merged warnings") {
  auto lassen = shared_node_file("mpibind/coral-lassen.xml");
  if (!lassen) return;
  NodeSources src;
  src.node_classes = {"lassen[1-64]=" + *lassen};
  const NodeSet set = load_node_set(src);
  CHECK(set.nodes.size() == 64);
  CHECK(set.nodes[63].hostname == "lassen64");
  REQUIRE(set.classes.size() == 1);
  CHECK(set.classes[0].hostlist == "lassen[1-64]");
  // One warning for all 64 hosts, not 64 copies.
  REQUIRE(set.warnings.size() == 1);
  CHECK(set.warnings[0].rfind("lassen[1-64]: 16 PUs are offline", 0) == 0);
}

TEST_CASE("load_node_set: a listed host without a file is an error, or a warning if allowed") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  s.write("nodes/gpu1.xml", read_text(*ipa));
  s.write("nodes/gpu2.xml", read_text(*ipa));
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  src.expected_hosts = {"gpu1", "gpu2", "gpu3", "gpu4"};
  const std::string what = what_of(src);
  CHECK(what.find("2 host(s) in the node list have no <hostname>.xml/.json nor --node-class: gpu[3-4]") !=
        std::string::npos);
  CHECK(what.rfind(s.path("nodes"), 0) == 0);  // names the directory

  src.allow_missing = true;
  const NodeSet set = load_node_set(src);
  CHECK(set.missing == V{"gpu3", "gpu4"});
  CHECK(set.nodes.size() == 2);
  REQUIRE_FALSE(set.warnings.empty());
  CHECK(set.warnings.back().find("they get no NodeName/gres.conf lines") != std::string::npos);
}

TEST_CASE("load_node_set: the listed hosts are the set, other hosts' files are not even read") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  for (const char* h : {"gpu1", "gpu2", "gpu3"}) s.write(std::string("nodes/") + h + ".xml", read_text(*ipa));
  s.write("nodes/gpu9.xml", read_text(*ipa).substr(0, 5000));  // broken, and not asked for
  s.write("nodes/cpu1.json", node_to_json(load_node_xml(*ipa, "cpu1")));
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  src.node_classes = {"login[1-2]=" + *ipa};
  src.expected_hosts = {"gpu1", "gpu3"};
  const NodeSet set = load_node_set(src);
  std::vector<std::string> hosts;
  for (const auto& n : set.nodes) hosts.push_back(n.hostname);
  CHECK(hosts == V{"gpu1", "gpu3"});
  REQUIRE(set.classes.size() == 1);
  CHECK(set.classes[0].hostlist == "gpu[1,3]");
  // --node-class hosts outside the list are left out too; a listed host without a file is still an error.
  src.expected_hosts = {"gpu2", "login2", "gpu4"};
  CHECK(what_of(src).find("1 host(s) in the node list have no <hostname>.xml/.json nor --node-class: gpu4") !=
        std::string::npos);
  src.expected_hosts = {"gpu2", "login2"};
  hosts.clear();
  for (const auto& n : load_node_set(src).nodes) hosts.push_back(n.hostname);
  CHECK(hosts == V{"gpu2", "login2"});
  // The command-line form: --nodes as a hostlist.
  NodeSources cli;
  cli.nodes_dir = s.path("nodes");
  CHECK(load_node_set(cli, "gpu[2-3]").nodes.size() == 2);
}

TEST_CASE("load_node_set: collect's NVLink domain files (HOST.fabric.csv) are its own output, not called ignored") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  s.write("nodes/gpu1.xml", read_text(*ipa));
  s.write("nodes/gpu1.fabric.csv", "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n");
  s.write("nodes/gpu2.xml", read_text(*ipa));
  s.write("nodes/gpu2.fabric.csv", "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n");
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  const NodeSet set = load_node_set(src);
  CHECK(set.nodes.size() == 2);
  CHECK(set.warnings.empty());
  // A directory of nothing but those files is no node directory, and the error says what they are.
  ScratchDir t;
  t.write("gpu1.fabric.csv", "5e797fc6-0f46-421a-8724-0e102c0f723c, 1\n");
  NodeSources only;
  only.nodes_dir = t.dir.string();
  const std::string what = what_of(only);
  CHECK(what.find("no node files in the --nodes-dir directory (only NVLink domain files, HOST.fabric.csv, which "
                  "--nvlink-domains reads)") != std::string::npos);
}

TEST_CASE("load_node_set: ambiguous and malformed sources") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  ScratchDir s;
  s.write("nodes/gpu1.xml", read_text(*ipa));
  s.write("nodes/gpu1.json", node_to_json(load_node_xml(*ipa, "gpu1")));
  NodeSources src;
  src.nodes_dir = s.path("nodes");
  CHECK(what_of(src).find("host gpu1 is described twice") != std::string::npos);

  NodeSources cls;
  cls.node_classes = {"gpu[1-2]"};
  CHECK(what_of(cls).find("expected 'HOSTLIST=FILE'") != std::string::npos);
  cls.node_classes = {"gpu[1-=" + *ipa};
  CHECK(what_of(cls).find("is not a hostlist") != std::string::npos);
  cls.node_classes = {"gpu[1-2]=" + *ipa, "gpu2=" + *ipa};
  CHECK(what_of(cls).find("host gpu2 is described twice") != std::string::npos);

  ScratchDir t;
  t.write("bad name.xml", read_text(*ipa));
  NodeSources named;
  named.nodes_dir = t.dir.string();
  CHECK(what_of(named).find("is not a Slurm node name") != std::string::npos);

  NodeSources broken;
  broken.nodes_dir = t.dir.string();
  std::filesystem::remove(t.path("bad name.xml"));
  t.write("gpu7.xml", read_text(*ipa).substr(0, 5000));
  CHECK(what_of(broken).find("gpu7.xml:") != std::string::npos);  // the loader's file:line error

  NodeSources nodir;
  nodir.nodes_dir = t.path("absent");
  CHECK(what_of(nodir).find("cannot read the --nodes-dir directory") != std::string::npos);
}

TEST_CASE("load_node_set: every bad export is named, in host order, the same on any number of children") {
  auto ipa = shared_node_file("flux-core/ipa20.xml");
  if (!ipa) return;
  const std::filesystem::path bad = std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "tests/bad/hwloc";
  const std::string good = read_text(*ipa), crash = read_text((bad / "pu-without-complete-cpuset.xml").string());
  ScratchDir s;
  for (int i = 1; i <= 12; ++i) s.write("nodes/gpu" + std::to_string(i) + ".xml", good);
  // Natural host order: gpu2, gpu9, gpu10, gpu11 (not the directory's gpu10, gpu11, gpu2, gpu9).
  s.write("nodes/gpu2.xml", crash);
  s.write("nodes/gpu9.xml", good.substr(0, 5000));
  s.write("nodes/gpu10.xml", crash);
  s.write("nodes/gpu11.xml", read_text((bad / "no-numa.xml").string()));
  std::string expected = s.path("nodes/gpu2.xml") + ": 4 node files cannot be used:";
  for (const char* host : {"gpu2", "gpu9", "gpu10", "gpu11"}) {
    try {
      load_node_xml(s.path(std::string("nodes/") + host + ".xml"), "");
      FAIL("loads: " << host);
    } catch (const InputError& e) {
      expected += std::string("\n") + e.what();
    }
  }
  for (unsigned threads : {1u, 2u, 5u}) {
    CAPTURE(threads);
    NodeSources src;
    src.nodes_dir = s.path("nodes");
    src.threads = threads;
    CHECK(what_of(src) == expected);
  }
  CHECK(expected.find("gpu2.xml: libhwloc crashes on this XML export") != std::string::npos);
  CHECK(expected.find("gpu11.xml: hwloc cannot load this XML export (Topology does not contain any NUMA node") !=
        std::string::npos);
}

TEST_CASE("group_node_classes: hosts differing only in GUIDs, names and bus ids share a class") {
  auto ipa = shared_node("flux-core/ipa20.xml");
  if (!ipa) return;
  NodeInventory a = *ipa, b = *ipa, c = *ipa;
  a.hostname = "n2";
  b.hostname = "n10";
  b.nics[0].node_guid = 0x1234;
  b.nics[0].name = "mlx5_9";
  c.hostname = "n1";
  c.memory_mib -= 20;  // 4127755 MiB: still 4031 GiB
  NodeInventory d = *ipa;
  d.hostname = "n3";
  d.gpus.pop_back();  // a GPU fell off the bus
  const auto classes = group_node_classes({a, b, c, d});
  REQUIRE(classes.size() == 2);
  CHECK(classes[0].hosts == V{"n1", "n2", "n10"});
  CHECK(classes[1].hosts == V{"n3"});
}
