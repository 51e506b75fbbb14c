// iblinkinfo output as a --fabric: every form infiniband-diags 44 prints gives the fabric
// ibnetdiscover gives of the same simulated fabric (tests/data/iblinkinfo/README.md).
#include "discover/iblinkinfo_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "base/input_error.h"
#include "discover/fabric_file.h"
#include "tests/read_data.h"

using namespace slurmtopo;

namespace {
const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/iblinkinfo/";

std::string read(const std::string& name) { return slurmtopo::testing::read_data(kData + name); }

const FabricNode* node_described(const Fabric& f, const std::string& d) {
  for (const auto& n : f.nodes)
    if (n.description == d) return &n;
  return nullptr;
}

// Cables as (description, port) pairs: what both tools agree on whatever the GUIDs.
std::set<std::tuple<std::string, int, std::string, int>> cables(const Fabric& f) {
  std::set<std::tuple<std::string, int, std::string, int>> out;
  for (const auto& l : f.links) {
    auto a = std::make_pair(f.find(l.a.guid)->description, l.a.port);
    auto b = std::make_pair(f.find(l.b.guid)->description, l.b.port);
    if (b < a) std::swap(a, b);
    out.insert({a.first, a.second, b.first, b.second});
  }
  return out;
}

InputError error_of(const std::string& text) {
  try {
    parse_iblinkinfo_text(text, "links.txt");
  } catch (const InputError& e) {
    CHECK(e.file() == "links.txt");
    CHECK(std::string(e.what()).find("expected") != std::string::npos);
    return e;
  }
  FAIL("no InputError for:\n" << text);
  throw;
}
}  // namespace

TEST_CASE("iblinkinfo: default and -l forms give ibnetdiscover's cables, kinds and widths") {
  const Fabric ibnd = load_fabric_file(kData + "same-fabric.ibnetdiscover").front();
  for (const char* name : {"default.iblinkinfo", "line.iblinkinfo"}) {
    CAPTURE(name);
    CHECK(detect_fabric_format(kData + name) == FabricFormat::Iblinkinfo);
    const Fabric f = load_fabric_file(kData + name).front();
    CHECK(f.nodes.size() == ibnd.nodes.size());
    CHECK(cables(f) == cables(ibnd));
    const FabricNode* leaf = node_described(f, "MF0;leaf01:MQM8700/U1");
    REQUIRE(leaf);
    CHECK(leaf->kind == NodeKind::Switch);
    CHECK(leaf->num_ports == 12);
    CHECK(leaf->guid == 0x200000);
    CHECK(leaf->lid == 2);
    const FabricNode* hca = node_described(f, "gpu004 mlx5_0");
    REQUIRE(hca);
    CHECK(hca->kind == NodeKind::Ca);
    CHECK(hca->guid == 0x100007);  // its port GUID: iblinkinfo prints no node GUID for a CA
    CHECK(hca->lid == 7);
    for (const auto& l : f.links) {
      CHECK(l.width == 4);
      CHECK(l.speed == LinkSpeed::SDR);
    }
  }
}

TEST_CASE("iblinkinfo: --switches-only forms know CAs by their cable end alone") {
  const Fabric ibnd = load_fabric_file(kData + "same-fabric.ibnetdiscover").front();
  for (const char* name : {"switches-only.iblinkinfo", "line-switches-only.iblinkinfo"}) {
    CAPTURE(name);
    const Fabric f = load_fabric_file(kData + name).front();
    CHECK(cables(f) == cables(ibnd));
    const FabricNode* hca = node_described(f, "gpu001 mlx5_0");
    REQUIRE(hca);
    CHECK(hca->kind == NodeKind::Ca);
    CHECK(hca->lid == 1);
  }
}

TEST_CASE("iblinkinfo: speeds as per-lane Gb/s") {
  const std::string head = "Switch: 0x0000000000000a01 MF0;leaf01:MQM9700/U1:\n";
  auto speed = [&](const std::string& column) {
    const Fabric f = parse_iblinkinfo_text(head + "  1 1[  ] ==( 4X " + column +
                                               " Active/  LinkUp)==>  2 1[  ] \"gpu001 mlx5_0\" ( )\n",
                                           "links.txt");
    REQUIRE(f.links.size() == 1);
    return f.links.front().speed;
  };
  CHECK(speed("106.25 Gbps") == LinkSpeed::NDR);
  CHECK(speed("53.125 Gbps") == LinkSpeed::HDR);
  CHECK(speed("25.78125 Gbps") == LinkSpeed::EDR);
  CHECK(speed("14.0625 Gbps") == LinkSpeed::FDR);
  CHECK(speed("10.0 Gbps FDR10") == LinkSpeed::FDR10);
}

TEST_CASE("iblinkinfo bad: file:line for what cannot be") {
  const std::string head = "Switch: 0x0000000000000a01 MF0;leaf01:MQM9700/U1:\n";
  const std::string link = " ==( 4X 106.25 Gbps Active/  LinkUp)==> ";
  CHECK(error_of(head + "  1 0[  ]" + link + "2 1[  ] \"h\" ( )\n").line() == 2);    // port 0
  CHECK(error_of(head + "  1 -3[  ]" + link + "2 1[  ] \"h\" ( )\n").line() == 2);   // negative port
  CHECK(error_of(head + "  1 300[  ]" + link + "2 1[  ] \"h\" ( )\n").line() == 2);  // port > 255
  CHECK(error_of(head + "  1 1[  ]" + link + "60000 1[  ] \"h\" ( )\n").line() == 2);  // LID
  CHECK(error_of(head + "  1 1[  ] ==( 3X 106.25 Gbps Active/  LinkUp)==> 2 1[  ] \"h\" ( )\n").line() == 2);
  CHECK(error_of(head + "  0 1[  ]" + link + "0 1[  ] \"h\" ( )\n").line() == 2);  // no SM: LID 0
  CHECK(error_of(head + "something else\n").line() == 2);
  CHECK(error_of("Switch: 0xzz leaf:\n").line() == 1);
}

TEST_CASE("iblinkinfo: --cas-only knows the switches by their cable ends alone") {
  // The CA blocks of the default form are what --cas-only prints.
  std::istringstream all(read("default.iblinkinfo"));
  std::string text, line;
  bool ca = false;
  while (std::getline(all, line)) {
    if (line.starts_with("CA:")) ca = true;
    else if (line.starts_with("Switch:")) ca = false;
    if (ca) text += line + "\n";
  }
  const Fabric f = parse_iblinkinfo_text(text, "cas.txt");
  CHECK(f.links.size() == 4);
  const FabricNode* leaf = node_described(f, "MF0;leaf02:MQM8700/U1");
  REQUIRE(leaf);
  CHECK(leaf->kind == NodeKind::Switch);
  CHECK(leaf->lid == 3);
}

TEST_CASE("iblinkinfo: the Could-be hint is what both ends support, put on each end") {
  const std::string head = "Switch: 0x0000000000000a01 MF0;leaf01:MQM9700/U1:\n";
  auto ends = [&](const std::string& link, const std::string& hint) {
    const Fabric f = parse_iblinkinfo_text(
        head + "  1 1[  ] ==( " + link + " Active/  LinkUp)==>  2 1[  ] \"gpu001 mlx5_0\" (" + hint + ")\n", "links.txt");
    REQUIRE(f.links.size() == 1);
    const Link& l = f.links.front();
    CHECK(l.a.speed_supported == l.b.speed_supported);
    CHECK(l.a.width_supported == l.b.width_supported);
    return std::make_pair(l.a.width_supported, l.a.speed_supported);
  };
  CHECK(ends("1X 14.0625 Gbps", "Could be 4X Could be 14.0625 Gbps") == std::make_pair(4, LinkSpeed::FDR));
  CHECK(ends("4X 2.5 Gbps", "Could be 12X Could be 10.0 Gbps") == std::make_pair(12, LinkSpeed::QDR));
  CHECK(ends("4X 10.0 Gbps", " Could be FDR10") == std::make_pair(0, LinkSpeed::FDR10));
  CHECK(ends("4X 25.78125 Gbps", "Could be 53.125 Gbps") == std::make_pair(0, LinkSpeed::HDR));
  // No hint says nothing: an older iblinkinfo checks fewer speeds, so it is not "at its best".
  CHECK(ends("4X 106.25 Gbps", " ") == std::make_pair(0, LinkSpeed::Unknown));
}
