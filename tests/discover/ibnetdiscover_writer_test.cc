// The ibnetdiscover writer: what it writes reads back to the same fabric (every public dump),
// in ibnetdiscover's own layout, byte for byte the same each time.
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "base/version.h"
#include "discover/ibnetdiscover_text.h"
#include "discover/ibnetdiscover_writer.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

std::optional<std::string> read_public(const std::string& rel) {
  std::string path = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/" + rel;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    slurmtopo::testing::skip("public dump " + rel + " not found under " SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/");
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string write(const Fabric& f) {
  std::ostringstream out;
  write_ibnetdiscover_text(f, out);
  return out.str();
}

// Nodes and links field by field; `source` and `partial` may differ (partial notes name lines).
void check_same_fabric(const Fabric& got, const Fabric& want) {
  REQUIRE(got.nodes.size() == want.nodes.size());
  for (size_t i = 0; i < want.nodes.size(); ++i) {
    const FabricNode &g = got.nodes[i], &w = want.nodes[i];
    INFO("node 0x" << guid_hex(w.guid));
    CHECK(g.kind == w.kind);
    CHECK(g.guid == w.guid);
    CHECK(g.sysimgguid == w.sysimgguid);
    CHECK(g.description == w.description);
    CHECK(g.num_ports == w.num_ports);
    CHECK(g.lid == w.lid);
    CHECK(g.vendor_id == w.vendor_id);
    CHECK(g.device_id == w.device_id);
    CHECK(g.seen_only_as_peer == w.seen_only_as_peer);
  }
  REQUIRE(got.links.size() == want.links.size());
  for (size_t i = 0; i < want.links.size(); ++i) {
    const Link &g = got.links[i], &w = want.links[i];
    INFO("link 0x" << guid_hex(w.a.guid) << "[" << w.a.port << "] - 0x" << guid_hex(w.b.guid) << "[" << w.b.port << "]");
    for (auto [ge, we] : {std::pair{&g.a, &w.a}, std::pair{&g.b, &w.b}}) {
      CHECK(ge->guid == we->guid);
      CHECK(ge->port == we->port);
      CHECK(ge->port_guid == we->port_guid);
      CHECK(ge->lid == we->lid);
    }
    CHECK(g.width == w.width);
    CHECK(g.speed == w.speed);
  }
}

}  // namespace

TEST_CASE("ibnetdiscover writer round-trips every public dump") {
  for (const char* rel : {"topograph/example.out", "topograph/example-bad.out", "psmn_x5/X5.topofile",
                          "ibtopotool_tests/1.topo", "ibtopotool_tests/2.topo", "ibtopotool_tests/3.topo",
                          "ibtopotool_tests/4.topo", "superbench/ib_traffic_topo_aware_ibnetdiscover.txt",
                          "synthetic_fattree/k-4-n-3-Full.topo"}) {
    INFO("dump: " << rel);
    auto text = read_public(rel);
    if (!text) continue;
    Fabric first = parse_ibnetdiscover_text(*text, rel);
    std::string written = write(first);
    Fabric again = parse_ibnetdiscover_text(written, "written");
    check_same_fabric(again, first);
    // Nodes without a block stay without one, so the partial notes about them come back.
    CHECK(again.partial.size() == first.partial.size() - (rel == std::string("ibtopotool_tests/3.topo")));
    // A fixed point, apart from the partial notes (they name the line they came from).
    first.partial.clear();
    again.partial.clear();
    CHECK(write(again) == write(first));
  }
}

TEST_CASE("ibnetdiscover writer: layout, order and unknowns") {
  Fabric f;
  f.name = "tiny";
  f.partial = {"x.topo:1: the sweep reported an error: umad timeout"};
  f.nodes = {
      {NodeKind::Ca, 0x10, 0x13, "gpu001 mlx5_0", 1, 5, 0x2c9, 0x1021, false},
      {NodeKind::Switch, 0x20, 0x20, "MF0;leaf01:MQM9700/U1", 65, 1, 0x2c9, 0xd2f2, false},
      {NodeKind::Router, 0x30, 0, "router", 2, 9, 0x2c9, 0x1, false},
      {NodeKind::Ca, 0x40, 0, "Mellanox Technologies Aggregation Node", 0, 7, 0, 0, true},
  };
  f.links = {
      {{0x10, 1, 0x11, 5}, {0x20, 3, 0, 1}, 4, LinkSpeed::NDR},
      {{0x20, 1, 0, 1}, {0x20, 2, 0, 1}, 0, LinkSpeed::Unknown},  // loopback, link unknown
      {{0x20, 4, 0, 1}, {0x30, 1, 0x31, 9}, 12, LinkSpeed::Unknown},
      {{0x20, 65, 0, 1}, {0x40, 1, 0x40, 7}, 0, LinkSpeed::HDR},
  };
  normalize(f);
  const std::string want =
      "#\n# Topology file: written by slurmtopo " + slurmtopo_version() + " for fabric \"tiny\"\n#\n"
      "# partial: x.topo:1: the sweep reported an error: umad timeout\n"
      "\nvendid=0x2c9\ndevid=0xd2f2\nsysimgguid=0x20\nswitchguid=0x20(20)\n"
      "Switch\t65 \"S-0000000000000020\"\t\t# \"MF0;leaf01:MQM9700/U1\" enhanced port 0 lid 1 lmc 0\n"
      "[1]\t\"S-0000000000000020\"[2]\t\t# \"MF0;leaf01:MQM9700/U1\" lid 1\n"
      "[2]\t\"S-0000000000000020\"[1]\t\t# \"MF0;leaf01:MQM9700/U1\" lid 1\n"
      "[3]\t\"H-0000000000000010\"[1](11) \t\t# \"gpu001 mlx5_0\" lid 5 4xNDR\n"
      "[4]\t\"R-0000000000000030\"[1](31) \t\t# \"router\" lid 9 12x???\n"
      "[65]\t\"H-0000000000000040\"[1](40) \t\t# \"Mellanox Technologies Aggregation Node\" lid 7 ??HDR\n"
      "\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x13\ncaguid=0x10\n"
      "Ca\t1 \"H-0000000000000010\"\t\t# \"gpu001 mlx5_0\"\n"
      "[1](11) \t\"S-0000000000000020\"[3]\t\t# lid 5 lmc 0 \"MF0;leaf01:MQM9700/U1\" lid 1 4xNDR\n"
      "\nvendid=0x2c9\ndevid=0x1\nrtguid=0x30\n"
      "Rt\t2 \"R-0000000000000030\"\t\t# \"router\"\n"
      "[1](31) \t\"S-0000000000000020\"[4]\t\t# lid 9 lmc 0 \"MF0;leaf01:MQM9700/U1\" lid 1 12x???\n";
  CHECK(write(f) == want);
  // The aggregation node had no block and gets none: reading back makes it a placeholder again.
  Fabric back = parse_ibnetdiscover_text(want, "tiny.topo");
  check_same_fabric(back, f);
}

TEST_CASE("ibnetdiscover writer keeps descriptions on one line") {
  Fabric f;
  f.nodes = {{NodeKind::Ca, 0x10, 0, "two\nlines\tand a tab", 1, 0, 0, 0, false}};
  std::string text = write(f);
  CHECK(text.find("# \"two lines and a tab\"") != std::string::npos);
  CHECK(parse_ibnetdiscover_text(text, "t").nodes[0].description == "two lines and a tab");
}
