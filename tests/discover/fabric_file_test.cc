// `--fabric FILE`: the format is recognised from the content, the fabric is named after the
// file, and a file that is none of the formats is an error that says what it is instead.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "base/input_error.h"
#include "discover/fabric_file.h"
#include "discover/snapshot.h"
#include "tests/skip.h"

using namespace slurmtopo;
namespace fs = std::filesystem;

namespace {

const std::string kPublic = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/";
const std::string kSamples = SLURMTOPO_SOURCE_DIR "/samples/";
const std::string kBad = SLURMTOPO_SOURCE_DIR "/tests/data/bad/";

// A scratch directory removed at scope exit.
struct TempDir {
  TempDir() : path(fs::temp_directory_path() / ("slurmtopo-fabric-file-test-" + std::to_string(::getpid()))) {
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::string file = (path / name).string();
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }
  fs::path path;
};

std::string message_of(const std::string& path) {
  try {
    detect_fabric_format(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 0);
    return e.what();
  }
  FAIL("no InputError for " << path);
  return {};
}

}  // namespace

TEST_CASE("fabric file: every public ibnetdiscover dump is recognised as text") {
  for (const char* rel : {"topograph/example.out", "topograph/example-bad.out", "psmn_x5/X5.topofile",
                          "ibtopotool_tests/1.topo", "ibtopotool_tests/2.topo", "ibtopotool_tests/3.topo",
                          "ibtopotool_tests/4.topo", "superbench/ib_traffic_topo_aware_ibnetdiscover.txt",
                          "synthetic_fattree/k-4-n-3-Full.topo"}) {
    INFO("dump: " << rel);
    if (!fs::exists(kPublic + rel)) {
      slurmtopo::testing::skip("public dump " + std::string(rel) + " not found under " + kPublic);
      continue;
    }
    CHECK(detect_fabric_format(kPublic + rel) == FabricFormat::IbnetdiscoverText);
  }
}

TEST_CASE("fabric file: the other public files are not fabrics, and say what they are") {
  // A Slurm topology.conf and a SHARP topology listing (`sharp_cmd topology`, in topology.conf's
  // form): switches and nodes, no cable. The refusal names the form and where it goes instead.
  for (const char* rel : {"topology_conf/slurm-superpod_circe.topology.conf", "azure_cyclecloud/topology.txt"}) {
    if (!fs::exists(kPublic + rel)) {
      slurmtopo::testing::skip(kPublic + rel + " not found");
      continue;
    }
    try {
      detect_fabric_format(kPublic + rel);
      FAIL("no InputError for " << rel);
    } catch (const InputError& e) {
      CHECK(e.file() == kPublic + rel);
      CHECK(e.line() == 1);
      CHECK(std::string(e.what()).find("this is a Slurm topology file") != std::string::npos);
      CHECK(std::string(e.what()).find("give it to --topology") != std::string::npos);
    }
  }
}

TEST_CASE("fabric file: cache and snapshot by content, whatever the name") {
  CHECK(detect_fabric_format(kSamples + "ibsim-small.cache") == FabricFormat::IbndCache);
  CHECK(detect_fabric_format(kSamples + "ibsim-small.ibnetdiscover") == FabricFormat::IbnetdiscoverText);
  TempDir dir;
  Snapshot s;
  s.fabrics = load_fabric_file(kSamples + "ibsim-small.cache");
  std::string snap = dir.write("fabric.txt", snapshot_to_json(s));
  CHECK(detect_fabric_format(snap) == FabricFormat::Snapshot);
}

TEST_CASE("fabric file: source and name come from the path") {
  auto cache = load_fabric_file(kSamples + "ibsim-small.cache");
  REQUIRE(cache.size() == 1);
  CHECK(cache[0].source == kSamples + "ibsim-small.cache");
  CHECK(cache[0].name == "ibsim-small");
  auto text = load_fabric_file(kSamples + "ibsim-small.ibnetdiscover");
  REQUIRE(text.size() == 1);
  CHECK(text[0].name == "ibsim-small");
  CHECK(text[0].nodes.size() == cache[0].nodes.size());

  // Only [A-Za-z0-9_-] survive in the name; the last extension goes.
  TempDir dir;
  std::string odd = dir.write("my fabric.v2(old).topo", "caguid=0x10\nCa\t1 \"H-0000000000000010\"\t\t# \"h\"\n");
  auto fabrics = load_fabric_file(odd);
  REQUIRE(fabrics.size() == 1);
  CHECK(fabrics[0].name == "my_fabric_v2_old_");
  CHECK(fabrics[0].source == odd);
  CHECK(load_fabric_file(dir.write(".topo", "caguid=0x10\nCa 1 \"H-10\" # \"h\"\n"))[0].name == "_topo");
}

TEST_CASE("fabric file: a snapshot keeps its fabrics' own names") {
  TempDir dir;
  Snapshot s;
  s.fabrics = load_fabric_file(kSamples + "ibsim-small.ibnetdiscover");
  s.fabrics.push_back(s.fabrics[0]);
  s.fabrics[0].name = "compute";
  s.fabrics[1].name = "storage";
  auto back = load_fabric_file(dir.write("two.json", snapshot_to_json(s)));
  REQUIRE(back.size() == 2);
  CHECK(back[0].name == "compute");
  CHECK(back[1].name == "storage");
  CHECK(back[0].source == kSamples + "ibsim-small.ibnetdiscover");
}

TEST_CASE("fabric file bad: missing, empty, directory, binary, something else") {
  CHECK(message_of("/nonexistent/fabric.topo") == "/nonexistent/fabric.topo: cannot open: No such file or directory");
  TempDir dir;
  CHECK(message_of(dir.write("empty.topo", "")).find(": empty file: expected an ibnetdiscover dump") !=
        std::string::npos);
  CHECK(message_of(dir.write("blank.topo", "\n \n")).find("empty file (only blank lines)") != std::string::npos);
  CHECK(message_of(dir.path.string()).find("cannot read: it is a directory") != std::string::npos);
  CHECK(message_of(kBad + "garbage.bin").find("binary data, not an ibnetdiscover dump") != std::string::npos);
  CHECK(message_of(dir.write("prose.txt", "These are the notes of the cabling day.\nNothing else.\n"))
            .find(": not an ibnetdiscover dump, iblinkinfo output, libibnetdisc cache or slurmtopo snapshot") !=
        std::string::npos);
}

TEST_CASE("fabric file bad: a recognised file with bad content names its line") {
  try {
    load_fabric_file(kBad + "truncated-port-line.topo");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == kBad + "truncated-port-line.topo");
    CHECK(e.line() == 11);
  }
}
