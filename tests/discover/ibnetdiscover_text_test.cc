// The ibnetdiscover text reader: facts of each public dump (every number below was counted
// in the file itself with grep/awk, and the comment says how), the format's variants on small
// hand-made texts, and one test per kind of bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "base/input_error.h"
#include "discover/ibnetdiscover_text.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

std::string public_dump_path(const std::string& rel) {
  return SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/" + rel;
}

// The public dumps live outside the repository; tests that need one skip without it.
std::optional<Fabric> parse_public(const std::string& rel) {
  std::ifstream in(public_dump_path(rel), std::ios::binary);
  if (!in) {
    slurmtopo::testing::skip("public dump " + std::string(rel) + " not found under " + public_dump_path(""));
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_ibnetdiscover_text(text.str(), rel);
}

Fabric parse(const std::string& text) { return parse_ibnetdiscover_text(text, "test.topo"); }

size_t count_kind(const Fabric& f, NodeKind kind) {
  return std::count_if(f.nodes.begin(), f.nodes.end(), [&](const FabricNode& n) { return n.kind == kind; });
}

size_t count_described(const Fabric& f, const std::string& description) {
  return std::count_if(f.nodes.begin(), f.nodes.end(),
                       [&](const FabricNode& n) { return n.description == description; });
}

// "4xNDR" → number of cables at that width and speed.
std::map<std::string, int> link_kinds(const Fabric& f) {
  std::map<std::string, int> kinds;
  for (const auto& l : f.links) ++kinds[std::to_string(l.width) + "x" + to_string(l.speed)];
  return kinds;
}

const FabricNode& node(const Fabric& f, uint64_t guid) {
  const FabricNode* n = f.find(guid);
  REQUIRE_MESSAGE(n, "no node 0x" << guid_hex(guid));
  return *n;
}

// The end of a cable that belongs to `guid` (links are oriented by GUID, not by role).
const LinkEnd& end_of(const Link& l, uint64_t guid) { return l.a.guid == guid ? l.a : l.b; }
const LinkEnd& far_end(const Link& l, uint64_t guid) { return l.a.guid == guid ? l.b : l.a; }

const Link* link_at(const Fabric& f, uint64_t guid, int port) {
  for (const auto& l : f.links)
    if ((l.a.guid == guid && l.a.port == port) || (l.b.guid == guid && l.b.port == port)) return &l;
  return nullptr;
}

// The InputError a text raises, checked for file, line and an "expected" message.
InputError error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    CHECK(e.file() == "test.topo");
    CHECK(std::string(e.what()).find("expected") != std::string::npos);
    return e;
  }
  FAIL("no InputError for:\n" << text);
  throw;  // unreachable
}

}  // namespace

// ---- the public dumps ----------------------------------------------------------------------

TEST_CASE("ibnetdiscover topograph/example.out: NDR DGX fabric") {
  auto f = parse_public("topograph/example.out");
  if (!f) return;
  // grep -c '^Switch' = 40 and '^Ca' = 582; no Rt lines.
  CHECK(count_kind(*f, NodeKind::Switch) == 40);
  CHECK(count_kind(*f, NodeKind::Ca) == 582);
  CHECK(count_kind(*f, NodeKind::Router) == 0);
  // 2,228 port lines, every cable printed from both ends, all "4xNDR".
  CHECK(f->links.size() == 1114);
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xNDR", 1114}});
  // Every peer named in a port line has its own block; the README's missing leaf
  // A09-P1-IBLEAF-03-01 is absent altogether (grep finds no line naming it), not a placeholder.
  CHECK(std::none_of(f->nodes.begin(), f->nodes.end(), [](const FabricNode& n) { return n.seen_only_as_peer; }));
  CHECK(f->partial.empty());
  // 40 SHARP aggregation nodes (devid 0xcf09), one on port 65 of every switch, spines included.
  CHECK(count_described(*f, "Mellanox Technologies Aggregation Node") == 40);
  for (const auto& n : f->nodes)
    if (n.kind == NodeKind::Switch) {
      const Link* l = link_at(*f, n.guid, 65);
      REQUIRE(l);
      uint64_t peer = far_end(*l, n.guid).guid;
      CHECK(node(*f, peer).description == "Mellanox Technologies Aggregation Node");
      CHECK(node(*f, peer).device_id == 0xcf09);
    }
  // 69 HCAs kept the factory description (three spaces inside, verbatim) and 3 say localhost.
  CHECK(count_described(*f, "MT4129 ConnectX7   Mellanox Technologies") == 69);
  CHECK(count_described(*f, "localhost HCA-1") == 1);
  CHECK(count_described(*f, "localhost HCA-2") == 1);
  CHECK(count_described(*f, "localhost HCA-6") == 1);
  // The first block: leaf A09-P1-IBLEAF-04-04, 65 ports, LID 73, its port 1 to a08-p1-dgx-04-c01.
  const FabricNode& leaf = node(*f, 0x2c5eab0300b87b40);
  CHECK(leaf.description == "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1");
  CHECK(leaf.num_ports == 65);
  CHECK(leaf.lid == 73);
  CHECK(leaf.vendor_id == 0x2c9);
  CHECK(leaf.device_id == 0xd2f2);
  CHECK(leaf.sysimgguid == 0x2c5eab0300b87b40);
  const Link* host = link_at(*f, 0x2c5eab0300b87b40, 1);
  REQUIRE(host);
  CHECK(far_end(*host, leaf.guid).guid == 0xe09d7303007a4bd8);
  CHECK(far_end(*host, leaf.guid).port_guid == 0xe09d7303007a4bd8);
  CHECK(far_end(*host, leaf.guid).lid == 647);
  CHECK(end_of(*host, leaf.guid).lid == 73);
  CHECK(end_of(*host, leaf.guid).port_guid == 0);  // switch ends carry no port GUID
  CHECK(node(*f, 0xe09d7303007a4bd8).lid == 647);  // from the CA's own "# lid 647 lmc 0"
  // 31 leaves ("IBLEAF") and 9 spines ("IBSPINE") by description.
  int leaves = 0, spines = 0;
  for (const auto& n : f->nodes) {
    leaves += n.description.find("IBLEAF") != std::string::npos;
    spines += n.description.find("IBSPINE") != std::string::npos;
  }
  CHECK(leaves == 31);
  CHECK(spines == 9);
}

TEST_CASE("ibnetdiscover topograph/example-bad.out: one CA and nothing else is valid") {
  auto f = parse_public("topograph/example-bad.out");
  if (!f) return;
  // A GB200 sweep that saw only its own HCA: one Ca block without port lines.
  REQUIRE(f->nodes.size() == 1);
  CHECK(f->nodes[0].kind == NodeKind::Ca);
  CHECK(f->nodes[0].guid == 0xb8e92403009ca838);
  CHECK(f->nodes[0].description == "dgx-gb200-n01-c1 HCA-1");
  CHECK(f->nodes[0].lid == 0);  // no port line, so no LID
  CHECK(f->links.empty());
  CHECK(f->partial.empty());
}

TEST_CASE("ibnetdiscover psmn_x5/X5.topofile: QDR/DDR cluster with '#' in descriptions") {
  auto f = parse_public("psmn_x5/X5.topofile");
  if (!f) return;
  // grep -c '^Switch' = 11, '^Ca' = 89.
  CHECK(count_kind(*f, NodeKind::Switch) == 11);
  CHECK(count_kind(*f, NodeKind::Ca) == 89);
  // 318 port lines = 159 cables; 272 lines say 4xQDR and 46 say 4xDDR (halve both).
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xQDR", 136}, {"4xDDR", 23}});
  // Every HCA kept the factory description: host names only come from X5.map.
  CHECK(count_described(*f, "MT25408 ConnectX Mellanox Technologies") == 89);
  // Five Voltaire 4036 descriptions hold a '#', e.g. "Voltaire 4036 # 4036-8C5C" (LID 16),
  // which must not be taken for the start of the comment.
  const FabricNode& hash = node(*f, 0x0008f10500108c5c);
  CHECK(hash.description == "Voltaire 4036 # 4036-8C5C");
  CHECK(hash.lid == 16);
  int with_hash = 0;
  for (const auto& n : f->nodes) with_hash += n.description.find(" # ") != std::string::npos;
  CHECK(with_hash == 5);
  // Four switches share "Voltaire 4036 - 36 QDR ports switch": descriptions do not identify.
  CHECK(count_described(*f, "Voltaire 4036 - 36 QDR ports switch") == 4);
  // Port GUIDs differ from node GUIDs here: H-003048c749cd0000 port 1 is 3048c749cd0001.
  const Link* l = link_at(*f, 0x003048c749cd0000, 1);
  REQUIRE(l);
  const LinkEnd& ca = end_of(*l, 0x003048c749cd0000);
  CHECK(ca.port_guid == 0x003048c749cd0001);
  CHECK(ca.lid == 72);
  CHECK(l->speed == LinkSpeed::DDR);
}

TEST_CASE("ibnetdiscover ibtopotool_tests/1.topo: the man page example (2007)") {
  auto f = parse_public("ibtopotool_tests/1.topo");
  if (!f) return;
  // "Non-Chassis Nodes" header, 2 Voltaire switches, 4 two-port InfiniHost CAs.
  CHECK(count_kind(*f, NodeKind::Switch) == 2);
  CHECK(count_kind(*f, NodeKind::Ca) == 4);
  CHECK(f->links.size() == 7);  // 14 port lines
  // Two port lines say 1xSDR (lines 26 and 52) while the other end of each of those cables
  // says 4xSDR (lines 15 and 18): the hand-edited example disagrees with itself, and a cable
  // runs at the lower width, so both cables are 1x (the README's "one" 1x link is two).
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xSDR", 5}, {"1xSDR", 2}});
  CHECK(link_at(*f, 0x8f10400410015, 1)->width == 1);
  CHECK(link_at(*f, 0x8f10403960558, 1)->width == 1);
  // The dual-port HCA has both ports on the same switch (ports 8 and 12).
  const Link* p1 = link_at(*f, 0x0008f10403960558, 1);
  const Link* p2 = link_at(*f, 0x0008f10403960558, 2);
  REQUIRE(p1);
  REQUIRE(p2);
  CHECK(far_end(*p1, 0x0008f10403960558).guid == 0x005442ba00003080);
  CHECK(far_end(*p1, 0x0008f10403960558).port == 12);
  CHECK(far_end(*p2, 0x0008f10403960558).port == 8);
  // Port GUIDs printed without leading zeros: (8f10403960559).
  CHECK(end_of(*p1, 0x0008f10403960558).port_guid == 0x8f10403960559);
  // Its block lists port 2 (lid 14) before port 1 (lid 10): the node LID is port 1's.
  CHECK(node(*f, 0x0008f10403960558).lid == 10);
  // Switch 0x8f10400410015 and the CAs print no sysimgguid line.
  CHECK(node(*f, 0x8f10400410015).sysimgguid == 0);
  CHECK(node(*f, 0x005442ba00003080).sysimgguid == 0x5442ba00003000);
  CHECK(node(*f, 0x005442ba00003080).lid == 6);  // "base port 0 lid 6"
  // Its header's capture time, the double blank of ctime() collapsed.
  CHECK(f->captured == "Tue Jun 5 14:15:10 2007");
}

TEST_CASE("ibnetdiscover capture time: only the header's, once, none without a header") {
  const Fabric with = parse_ibnetdiscover_text(
      "#\n# Topology file: generated on Mon Jul 25 11:30:26 2016\r\n#\n"
      "# Topology file: generated on Sat Apr 13 22:28:55 2002\n"
      "Switch\t2 \"S-0000000000000001\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"H-0000000000000002\"[1](0000000000000003) \t\t# \"h\" lid 2 4xHDR\n\n"
      "Ca\t1 \"H-0000000000000002\"\t\t# \"h\"\n"
      "[1](0000000000000003) \t\"S-0000000000000001\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 4xHDR\n",
      "two-headers.topo");
  CHECK(with.captured == "Mon Jul 25 11:30:26 2016");
  const Fabric without = parse_ibnetdiscover_text(
      "Switch\t2 \"S-0000000000000001\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
      "[1]\t\"H-0000000000000002\"[1](0000000000000003) \t\t# \"h\" lid 2 4xHDR\n\n"
      "Ca\t1 \"H-0000000000000002\"\t\t# \"h\"\n"
      "[1](0000000000000003) \t\"S-0000000000000001\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 4xHDR\n",
      "headless.topo");
  CHECK(without.captured.empty());
}

TEST_CASE("ibnetdiscover ibtopotool_tests/2.topo: IBM example, one switch") {
  auto f = parse_public("ibtopotool_tests/2.topo");
  if (!f) return;
  CHECK(count_kind(*f, NodeKind::Switch) == 1);
  CHECK(count_kind(*f, NodeKind::Ca) == 2);
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xSDR", 2}});
  // compute-00-00 is cabled on its port 2 (port GUID ...847e), so its LID is port 2's.
  const FabricNode& ca = node(*f, 0x0002c9030002847c);
  CHECK(ca.description == "compute-00-00 HCA-1");
  CHECK(ca.lid == 2);
  CHECK(end_of(*link_at(*f, 0x0002c9030002847c, 2), 0x0002c9030002847c).port_guid == 0x2c9030002847e);
}

TEST_CASE("ibnetdiscover ibtopotool_tests/3.topo: umad error line and loopback cables") {
  auto f = parse_public("ibtopotool_tests/3.topo");
  if (!f) return;
  CHECK(count_kind(*f, NodeKind::Switch) == 2);
  CHECK(count_kind(*f, NodeKind::Ca) == 6);
  // Line 1 is a umad timeout: the sweep is partial, and says where.
  REQUIRE(f->partial.size() == 1);
  CHECK(f->partial[0].find("3.topo:1:") != std::string::npos);
  CHECK(f->partial[0].find("bad status 110") != std::string::npos);
  // 20 port lines = 10 cables; three of them loop SwitchIB 0xe41d2d030003e470 to itself
  // (ports 1-2, 19-21, 29-30), each printed twice in the same block.
  CHECK(f->links.size() == 10);
  std::set<std::pair<int, int>> loops;
  for (const auto& l : f->links)
    if (l.a.guid == l.b.guid) loops.insert({l.a.port, l.b.port});
  CHECK(loops == std::set<std::pair<int, int>>{{1, 2}, {19, 21}, {29, 30}});
  // Mixed speeds by cable: 3 loops + 1 HCA at EDR, 3 FDR, 2 QDR, 1 SDR.
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xEDR", 4}, {"4xFDR", 3}, {"4xQDR", 2}, {"4xSDR", 1}});
  // r-ufm216's port GUID equals its node GUID (e41d2d030061f957), r-ufm111 uses port 2.
  CHECK(end_of(*link_at(*f, 0xe41d2d030061f957, 1), 0xe41d2d030061f957).port_guid == 0xe41d2d030061f957);
  CHECK(node(*f, 0x0002c903003421b0).lid == 3);
}

TEST_CASE("ibnetdiscover ibtopotool_tests/4.topo: Sun DCS 36, blocks without blank lines") {
  auto f = parse_public("ibtopotool_tests/4.topo");
  if (!f) return;
  // The Switch block follows the '#' header directly, and a line of one space separates blocks.
  CHECK(count_kind(*f, NodeKind::Switch) == 1);
  CHECK(count_kind(*f, NodeKind::Ca) == 1);
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xQDR", 1}});
  CHECK(node(*f, 0x0021283a8389a0a0).description == "Sun DCS 36 QDR switch localhost");
  CHECK(node(*f, 0x0021283a8389a0a0).lid == 15);
}

TEST_CASE("ibnetdiscover superbench: director modules, extended fields, an unreached SHARP node") {
  auto f = parse_public("superbench/ib_traffic_topo_aware_ibnetdiscover.txt");
  if (!f) return;
  // 8 Switch blocks: MCS8500 director modules S01, L01, L02 and five MQM8700 ToRs.
  CHECK(count_kind(*f, NodeKind::Switch) == 8);
  // The three modules of the director share one system image GUID; the ToRs have their own.
  int director = 0;
  for (const auto& n : f->nodes) director += n.sysimgguid == 0xb8599f0300c2f06a;
  CHECK(director == 3);
  CHECK(node(*f, 0x0ff08c43213b3f30).description == "MF0;rmd70-0101-0908-01ib1-A:MCS8500/S01/U1");
  // 10 host Ca blocks, plus the spine's SHARP node on port 41 that has no block of its own:
  // a placeholder, kind from "H-", description and LID from the port line. It lives on the
  // switch's internal port, so its missing block loses no cable: no partial note.
  CHECK(count_kind(*f, NodeKind::Ca) == 11);
  const FabricNode& an = node(*f, 0x0ff08c43213b3f38);
  CHECK(an.seen_only_as_peer);
  CHECK(an.kind == NodeKind::Ca);
  CHECK(an.description == "Mellanox Technologies Aggregation Node");
  CHECK(an.lid == 2152);
  CHECK(f->partial.empty());
  // 35 port lines: 17 cables seen from both ends + the AN's seen once = 18, all 4xHDR, with
  // "s=4 w=2 v=4 e=4" after the link.
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xHDR", 18}});
}

TEST_CASE("ibnetdiscover synthetic_fattree/k-4-n-3-Full.topo: generated 4-ary 3-tree") {
  auto f = parse_public("synthetic_fattree/k-4-n-3-Full.topo");
  if (!f) return;
  // Its own header says 80 switches and 128 HCAs; grep agrees.
  CHECK(count_kind(*f, NodeKind::Switch) == 80);
  CHECK(count_kind(*f, NodeKind::Ca) == 128);
  // 768 port lines, all 4xEDR: 128 host cables + 2 x 128 between the three switch levels.
  CHECK(link_kinds(*f) == std::map<std::string, int>{{"4xEDR", 384}});
  // The generator prints no "port 0 lid" on switch headers and "lid 0" everywhere.
  CHECK(std::all_of(f->nodes.begin(), f->nodes.end(), [](const FabricNode& n) { return n.lid == 0; }));
  CHECK(node(*f, 0x2000000).description == "Switch0");
  CHECK(node(*f, 0x2000000).vendor_id == 0);
  CHECK(end_of(*link_at(*f, 0x1000000, 1), 0x1000000).port_guid == 0x1000001);
}

// ---- variants of the format ------------------------------------------------------------------

TEST_CASE("ibnetdiscover variants: ext ports, extended fields, quotes, missing link, tabs or spaces") {
  const std::string text =
      "#\n# Topology file: generated on Mon Nov 30 10:48:06 2026\n#\n"
      "vendid=0x2c9\r\n"  // CRLF lines from a Windows copy
      "devid=0xd2f2\n"
      "sysimgguid=0xa0\t\t# Chassis 1 (ISR9288 Voltaire)\n"
      "switchguid=0xa1(a1)\t# ISR9288/ISR9096 Voltaire sLB-24D Line 5 Chip 1\n"
      "Switch 24 \"S-00000000000000a1\" # \"a \"quoted\" name; with # too\" base port 0 lid 7 lmc 0\n"
      "[1][ext 13]\t\"H-00000000000000b1\"[1](b2)  \t# \"host1 mlx5_0\" lid 9 4xNDR s=4 w=2 v=4 e=4\n"
      "[2]    \"S-00000000000000a1\"[3]    # \"a \"quoted\" name; with # too\" lid 7\n"
      "[3] \"S-00000000000000a1\"[2] # \"a \"quoted\" name; with # too\" lid 7 ??QDR\n"
      "[4]\t\"R-00000000000000c1\"[1](c1) # \"router\" lid 11 12x???\n"
      "\n"
      "caguid=0xb1\n"
      "Ca\t1 \"H-00000000000000b1\"\t\t# \"host1 mlx5_0\" (scp)\n"
      "[1](b2) \t\"S-00000000000000a1\"[1][ext 13]\t\t# lid 9 lmc 0 \"a \"quoted\" name; with # too\" lid 7 4xNDR\n"
      "\n"
      "rtguid=0xc1\n"
      "Rt\t1 \"R-00000000000000c1\"\t\t# \"router\"\n"
      "[1](c1) \t\"S-00000000000000a1\"[4]\t\t# lid 11 lmc 0 \"a \"quoted\" name; with # too\" lid 7 12x???\n";
  Fabric f = parse(text);
  REQUIRE(f.nodes.size() == 3);
  const FabricNode& sw = node(f, 0xa1);
  CHECK(sw.description == "a \"quoted\" name; with # too");
  CHECK(sw.lid == 7);
  CHECK(sw.sysimgguid == 0xa0);
  CHECK(sw.vendor_id == 0x2c9);
  CHECK(node(f, 0xb1).lid == 9);
  CHECK(node(f, 0xc1).kind == NodeKind::Router);
  CHECK(f.partial.empty());
  REQUIRE(f.links.size() == 3);
  const Link* host = link_at(f, 0xa1, 1);
  CHECK(host->width == 4);
  CHECK(host->speed == LinkSpeed::NDR);
  CHECK(end_of(*host, 0xb1).port_guid == 0xb2);
  // The loopback 2-3 is printed once with no link word and once as "??QDR": the known speed
  // is kept, the width stays unknown.
  const Link* loop = link_at(f, 0xa1, 2);
  CHECK(far_end(*loop, 0xa1).guid == 0xa1);
  CHECK(loop->width == 0);
  CHECK(loop->speed == LinkSpeed::QDR);
  // "12x???": width known, speed not.
  const Link* rt = link_at(f, 0xc1, 1);
  CHECK(rt->width == 12);
  CHECK(rt->speed == LinkSpeed::Unknown);
}

TEST_CASE("ibnetdiscover variants: CA to CA back-to-back and -g chassis sections") {
  // ibnetdiscover -g puts director modules under "Chassis N" with "# Spine Nodes" etc., then
  // "Non-Chassis Nodes"; out_ca_port() prints a space before a CA peer's port GUID.
  const std::string text =
      "#\n# Topology file: generated on Tue Jun  5 14:15:10 2007\n#\n\n"
      "Chassis 1 (guid 0x8f104003f0bc9)\n\n# Spine Nodes\n"
      "Hostname: director01\n"
      "Non-Chassis Nodes\n\n"
      "caguid=0x10\n"
      "Ca\t2 \"H-0000000000000010\"\t\t# \"left HCA-1\"\n"
      "[1](11) \t\"H-0000000000000020\"[1] (21) \t\t# lid 1 lmc 0 \"right HCA-1\" lid 2 4xEDR\n"
      "\n"
      "caguid=0x20\n"
      "Ca\t2 \"H-0000000000000020\"\t\t# \"right HCA-1\"\n"
      "[1](21) \t\"H-0000000000000010\"[1] (11) \t\t# lid 2 lmc 0 \"left HCA-1\" lid 1 4xEDR\n";
  Fabric f = parse(text);
  REQUIRE(f.links.size() == 1);
  CHECK(f.links[0].a.port_guid == 0x11);
  CHECK(f.links[0].b.port_guid == 0x21);
  CHECK(f.links[0].a.lid == 1);
  CHECK(f.links[0].b.lid == 2);
  CHECK(f.partial.empty());
}

TEST_CASE("ibnetdiscover variants: umad errors between blocks are partial notes with their line") {
  const std::string text =
      "vendid=0x2c9\ndevid=0xd2f2\nswitchguid=0xa1(a1)\n"
      "Switch\t36 \"S-00000000000000a1\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0\n"
      "[1]\t\"S-00000000000000a2\"[1]\t\t# \"spine\" lid 2 4xHDR\n"
      "ibwarn: [4242] discover: port 2 timed out\n"
      "src/query_smp.c:195; umad (DR path slid 0; dlid 0; 0,1,2 Attr 0x11:0) bad status 110; Connection timed out\n";
  Fabric f = parse(text);
  REQUIRE(f.partial.size() == 3);  // two diagnostics and the unreached spine
  CHECK(f.partial[0].find("test.topo:6:") == 0);
  CHECK(f.partial[1].find("test.topo:7:") == 0);
  CHECK(f.partial[2].find("0x00000000000000a2") != std::string::npos);
  CHECK(node(f, 0xa2).seen_only_as_peer);
  CHECK(node(f, 0xa2).kind == NodeKind::Switch);
  CHECK(node(f, 0xa2).lid == 2);
}

TEST_CASE("ibnetdiscover recognises its own text") {
  CHECK(looks_like_ibnetdiscover_text("#\n# Topology file: generated on ...\n"));
  CHECK(looks_like_ibnetdiscover_text("vendid=0x2c9\ndevid=0x1\n"));
  CHECK(looks_like_ibnetdiscover_text("src/query_smp.c:195; umad (DR path) bad status 110\n#\n"));
  CHECK(looks_like_ibnetdiscover_text("\nSwitch\t36 \"S-01\" # \"x\"\n"));
  CHECK_FALSE(looks_like_ibnetdiscover_text("SwitchName=s1 Nodes=n[1-4]\n"));
  CHECK_FALSE(looks_like_ibnetdiscover_text("{\"format\": \"slurmtopo-snapshot\"}"));
  CHECK_FALSE(looks_like_ibnetdiscover_text(std::string("vendid=\0x", 9)));
}

// ---- bad input: an InputError naming the file, the line and what was expected --------------

TEST_CASE("ibnetdiscover bad: empty file") {
  for (const char* text : {"", "\n\n  \n"}) {
    InputError e = error_of(text);
    CHECK(e.line() == 0);
    CHECK(std::string(e.what()) == "test.topo: empty file: expected ibnetdiscover topology text");
  }
}

TEST_CASE("ibnetdiscover bad: only comments, no node") {
  InputError e = error_of("#\n# Topology file: generated on Mon Nov 30 10:48:06 2026\n#\n");
  CHECK(e.line() == 0);
  CHECK(std::string(e.what()).find("no Switch/Ca/Rt block") != std::string::npos);
}

TEST_CASE("ibnetdiscover bad: binary garbage") {
  // With a NUL byte (any binary file), and without one (e.g. a mangled upload).
  InputError nul = error_of(std::string("vendid=0x2c9\n\x8f\xe7\x00\x2b\x01\x02", 19));
  CHECK(nul.line() == 2);
  CHECK(std::string(nul.what()).find("binary data") != std::string::npos);
  InputError high = error_of("vendid=0x2c9\ndevid=0x1\n\x8f\xe7\x83\x2b\x01\x02\n");
  CHECK(high.line() == 3);
  CHECK(std::string(high.what()).find("\\x8f\\xe7") != std::string::npos);  // shown escaped
}

TEST_CASE("ibnetdiscover bad: port line before any node header") {
  InputError e = error_of("#\n[1]\t\"S-00000000000000a1\"[1]\t\t# \"leaf\" lid 1 4xNDR\n");
  CHECK(e.line() == 2);
  CHECK(std::string(e.what()).find("header before the first port line") != std::string::npos);
}

TEST_CASE("ibnetdiscover bad: dump cut off inside a block header") {
  const std::string head = "vendid=0x2c9\ndevid=0xd2f2\nswitchguid=0xa1(a1)\n";
  // Cut inside the node name, inside the description, and before the header line.
  CHECK(error_of(head + "Switch\t36 \"S-00000000000").line() == 4);
  InputError desc = error_of(head + "Switch\t36 \"S-00000000000000a1\"\t\t# \"MF0;leaf01:MQM97");
  CHECK(desc.line() == 4);
  CHECK(std::string(desc.what()).find("closing '\"'") != std::string::npos);
  InputError ids = error_of("#\n" + head);
  CHECK(ids.line() == 2);  // where the orphaned id lines start
  CHECK(std::string(ids.what()).find("cut off") != std::string::npos);
  // The header line lost but its port lines kept: they must not join the previous node.
  InputError lost = error_of("caguid=0xb1\nCa 1 \"H-00000000000000b1\" # \"h\"\n" + head +
                             "[1]\t\"S-00000000000000a2\"[1]\t\t# \"spine\" lid 2 4xHDR\n");
  CHECK(lost.line() == 6);
}

TEST_CASE("ibnetdiscover bad: port line without its remote end") {
  const std::string head = "caguid=0xb1\nCa\t1 \"H-00000000000000b1\"\t\t# \"h\"\n";
  InputError bare = error_of(head + "[1](b1) \t");
  CHECK(bare.line() == 3);
  CHECK(std::string(bare.what()).find("remote end") != std::string::npos);
  InputError no_port = error_of(head + "[1](b1) \t\"S-00000000000000a1\"");
  CHECK(no_port.line() == 3);
  CHECK(std::string(no_port.what()).find("remote port number") != std::string::npos);
}

TEST_CASE("ibnetdiscover bad: malformed GUIDs") {
  // Not hex, more than 16 digits, no kind letter, and a malformed port GUID.
  CHECK(error_of("Switch 36 \"S-00000000000zz0a1\" # \"x\"\n").line() == 1);
  CHECK(error_of("Switch 36 \"S-100000000000000a1\" # \"x\"\n").line() == 1);
  CHECK(error_of("Switch 36 \"X-00000000000000a1\" # \"x\"\n").line() == 1);
  CHECK(error_of("Ca 1 \"H-b1\" # \"x\"\n[1](b1g) \"S-a1\"[1] # lid 1 lmc 0 \"y\" lid 2 4xNDR\n").line() == 2);
  CHECK(error_of("switchguid=0xa1(a1\n").line() == 1);
  CHECK(error_of("sysimgguid=a0\n").line() == 1);
}

TEST_CASE("ibnetdiscover bad: impossible values") {
  const std::string head = "Switch\t36 \"S-00000000000000a1\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0\n";
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 2 4xQQR\n").line() == 2);     // speed
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 2 3xNDR\n").line() == 2);     // width
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 70000 4xNDR\n").line() == 2); // LID
  CHECK(error_of(head + "[37]\t\"S-a2\"[1]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);    // port > 36
  CHECK(error_of(head + "[1]\t\"S-a2\"[256]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);   // port > 255
  CHECK(error_of("frobguid=0x1\n" + head).line() == 1);                                  // id key
  CHECK(error_of("Switch\tmany \"S-a1\" # \"x\"\n").line() == 1);                        // port count
}

TEST_CASE("ibnetdiscover bad: negative, zero where impossible, or out of range") {
  const std::string head = "Switch\t36 \"S-00000000000000a1\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0\n";
  CHECK(error_of("Switch\t-3 \"S-00000000000000a1\" # \"x\"\n").line() == 1);        // negative port count
  CHECK(error_of("Switch\t0 \"S-00000000000000a1\" # \"x\"\n").line() == 1);         // no ports
  CHECK(error_of("Ca\t0 \"H-00000000000000b1\" # \"x\"\n").line() == 1);
  CHECK(error_of(head + "[0]\t\"S-a2\"[1]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);      // port 0 has no cable
  CHECK(error_of(head + "[-1]\t\"S-a2\"[1]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);     // negative port
  CHECK(error_of(head + "[1]\t\"S-a2\"[0]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);      // remote port 0
  CHECK(error_of(head + "[1]\t\"S-a2\"[-2]\t\t# \"s\" lid 2 4xNDR\n").line() == 2);
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid -2 4xNDR\n").line() == 2);     // negative LID
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 49152 4xNDR\n").line() == 2);  // multicast LID
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 2 -4xNDR\n").line() == 2);     // negative width
  CHECK(error_of(head + "[1]\t\"S-a2\"[1]\t\t# \"s\" lid 2 0xNDR\n").line() == 2);      // zero width
  CHECK(error_of("Switch\t36 \"S-a1\" # \"x\" enhanced port 0 lid 65535 lmc 0\n").line() == 1);
  // The far port must exist on the far node: a 36-port switch has no port 40.
  const std::string two = head + "[1]\t\"S-00000000000000a2\"[40]\t\t# \"s\" lid 2 4xNDR\n\n" +
                          "Switch\t36 \"S-00000000000000a2\"\t\t# \"s\" enhanced port 0 lid 2 lmc 0\n" +
                          "[40]\t\"S-00000000000000a1\"[1]\t\t# \"leaf\" lid 1 4xNDR\n";
  InputError far = error_of(two);
  CHECK((far.line() == 2 || far.line() == 5));
}

TEST_CASE("ibnetdiscover bad: the same node twice") {
  const std::string block = "caguid=0xb1\nCa\t1 \"H-00000000000000b1\"\t\t# \"h\"\n\n";
  InputError e = error_of(block + block);
  CHECK(e.line() == 5);
  CHECK(std::string(e.what()).find("already has one at line 2") != std::string::npos);
}

TEST_CASE("ibnetdiscover bad inputs under tests/data/bad") {
  for (const char* name : {"truncated-port-line.topo", "truncated-header.topo", "garbage.bin"}) {
    CAPTURE(name);
    std::ifstream in(SLURMTOPO_SOURCE_DIR "/tests/data/bad/" + std::string(name), std::ios::binary);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THROWS_AS(parse(text.str()), InputError);
  }
}

TEST_CASE("ibnetdiscover bad: the two ends of a cable disagree") {
  const std::string sw = "Switch\t36 \"S-00000000000000a1\"\t\t# \"leaf\" enhanced port 0 lid 1 lmc 0\n"
                         "[1]\t\"H-00000000000000b1\"[1](b1) \t\t# \"h1\" lid 2 4xNDR\n";
  // The CA says its port 1 goes elsewhere than the switch says.
  InputError elsewhere = error_of(sw + "Ca\t1 \"H-00000000000000b1\"\t\t# \"h1\"\n"
                                       "[1](b1) \t\"S-00000000000000a2\"[7]\t\t# lid 2 lmc 0 \"x\" lid 3 4xNDR\n");
  CHECK(elsewhere.line() == 4);
  CHECK(std::string(elsewhere.what()).find("as line 2 says") != std::string::npos);
  // Two switch ports claim the same CA port.
  InputError twice = error_of(sw + "[2]\t\"H-00000000000000b1\"[1](b1) \t\t# \"h1\" lid 2 4xNDR\n");
  CHECK(twice.line() == 3);
  CHECK(std::string(twice.what()).find("one cable per port") != std::string::npos);
}
