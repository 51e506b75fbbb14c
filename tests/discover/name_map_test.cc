// GUID -> name maps in the formats sites keep, and errors that name file:line.
#include "discover/name_map.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/input_error.h"
#include "tests/skip.h"

using slurmtopo::InputError;
using slurmtopo::load_name_map;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(SLURMTOPO_SOURCE_DIR) / "tests/data/name_map";
const fs::path kShared = fs::path(SLURMTOPO_SOURCE_DIR) / "../shared/fabrics/public";

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("slurmtopo-namemap-" + std::to_string(getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& text) const {
    const fs::path p = dir / "map.txt";
    std::ofstream(p) << text;
    return p.string();
  }
};

InputError error_of(const std::string& path) {
  try {
    load_name_map(path);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for " << path);
  return InputError("", 0, "");
}

}  // namespace

TEST_CASE("load_name_map: ibnetdiscover --node-name-map") {
  const auto map = load_name_map((kData / "node-name-map.txt").string());
  CHECK(map.by_guid.size() == 3);
  CHECK(map.lookup(0x0002c9030004e938) == "r-ufm101");
  CHECK(map.lookup(0x7cfe900300a1b2c0) == "spine-01 (S01)");
  CHECK(map.lookup(0x0002c9030004e940) == "leaf#2");  // `#` inside quotes is the name's
  CHECK_FALSE(map.lookup(0x1234).has_value());
}

TEST_CASE("load_name_map: plain, H-/S- prefixed and `name: GUID` lines in one file") {
  const auto map = load_name_map((kData / "mixed.txt").string());
  CHECK(map.lookup(0x003048c74e4a0000) == "x5570comp1");
  CHECK(map.lookup(0x0002c90200401b70) == "ib-switch-1");
  CHECK(map.lookup(0x0002c903000a1b2c) == "bare-hex-host");
  CHECK(map.lookup(0x11) == "short");
  CHECK(map.lookup(0x155dfffd33ff33) == "gpu-01");  // one host, several rails
  CHECK(map.lookup(0x155dfffd33ff34) == "gpu-01");
  CHECK(map.by_guid.size() == 7);  // the same GUID and name twice is fine
}

TEST_CASE("load_name_map: the public X5.map (PSMN)") {
  const fs::path path = kShared / "psmn_x5/X5.map";
  if (!fs::exists(path)) {
    slurmtopo::testing::skip(path.string() + " not found");
    return;
  }
  const auto map = load_name_map(path.string());
  CHECK(map.by_guid.size() == 86);  // 87 lines, one comment
  CHECK(map.lookup(0x003048c74e4a0000) == "x5570comp1");
  CHECK(map.lookup(0x78e7d1030022cb84) == "sl390lin10");
}

TEST_CASE("load_name_map: Azure CycleCloud nodes_guids.txt") {
  const fs::path path = kShared / "azure_cyclecloud/nodes_guids.txt";
  if (!fs::exists(path)) {
    slurmtopo::testing::skip(path.string() + " not found");
    return;
  }
  const auto map = load_name_map(path.string());
  CHECK(map.by_guid.size() == 128);  // 16 hosts x 8 rails
  CHECK(map.lookup(0x155dfffd33ff33) == "hpcbench-hpc-1");
  // guid_hostnames.txt next to it is only host names, no GUIDs: not a map.
  const InputError e = error_of((kShared / "azure_cyclecloud/guid_hostnames.txt").string());
  CHECK(e.line() == 1);
}

TEST_CASE("load_name_map: bad lines") {
  const Scratch s;
  struct Bad {
    const char* text;
    int line;
    const char* says;
  };
  for (const Bad& bad : {
           Bad{"# ok\n0x0002c9030004e938\n", 2, "no name after the GUID"},
           Bad{"0xZZ02c9030004e938 \"n\"\n", 1, "`0xZZ02c9030004e938` is not a GUID"},
           Bad{"0x0002c9030004e9381 \"n\"\n", 1, "is not a GUID"},  // 17 digits
           Bad{"cafe node1\n", 1, "`cafe` is not a GUID"},  // bare hex must be 16 digits
           Bad{"0x1 \"unterminated\n", 1, "closing `\"` is missing"},
           Bad{"0x1 two words\n", 1, "text after the name"},
           Bad{"0x1 \"\"\n", 1, "the name is empty"},
           Bad{"host: 0x1 0x2\n", 1, "exactly one GUID"},
           Bad{"0x1 \"a\"\n\n0x01 \"b\"\n", 3, "0x0000000000000001 is `a` on line 1 and `b` here"},
       }) {
    CAPTURE(bad.text);
    const std::string path = s.write(bad.text);
    const InputError e = error_of(path);
    CHECK(e.file() == path);
    CHECK(e.line() == bad.line);
    const std::string what = e.what();
    CHECK(what.find("expected `0xGUID \"name\"`") != std::string::npos);
    CHECK(what.find(bad.says) != std::string::npos);
  }
  CHECK(error_of((s.dir / "missing.map").string()).line() == 0);
}

TEST_CASE("load_name_map: a name ending in a number no hostlist can hold is refused at its line") {
  const Scratch s;
  const std::string path = s.write("0x1 \"cn001 HCA-1\"\n0xb83fd20300c00000 \"cn99999999999999999999 HCA-1\"\n");
  const InputError e = error_of(path);
  CHECK(e.line() == 2);
  CHECK(std::string(e.what()) == path + ":2: expected a node name whose number a Slurm hostlist can hold; "
                                        "`cn99999999999999999999` ends in a number above 18446744073709551615");
  // The largest number that fits is a name like any other.
  CHECK(load_name_map(s.write("0x1 cn18446744073709551615\n")).by_guid.at(1) == "cn18446744073709551615");
}
