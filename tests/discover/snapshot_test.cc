// Snapshots: same fabric, same bytes; what is written reads back; what is wrong is named by
// file and line.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>

#include "base/input_error.h"
#include "base/version.h"
#include "discover/fabric_file.h"
#include "discover/ibnetdiscover_text.h"
#include "discover/snapshot.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

std::optional<Fabric> parse_public(const std::string& rel) {
  std::ifstream in(SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/" + rel, std::ios::binary);
  if (!in) {
    slurmtopo::testing::skip("public dump " + rel + " not found under " SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/");
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  Fabric f = parse_ibnetdiscover_text(text.str(), rel);
  f.name = "public";
  return f;
}

Fabric tiny() {
  Fabric f;
  f.source = "tiny.topo";
  f.name = "tiny";
  f.nodes = {{NodeKind::Ca, 0x10, 0x13, "gpu001 \"mlx5_0\"", 1, 5, 0x2c9, 0x1021, false},
             {NodeKind::Switch, 0x20, 0x20, "MF0;leaf01:MQM9700/U1", 65, 1, 0x2c9, 0xd2f2, false},
             {NodeKind::Router, 0xfffffffffffffff0, 0, "", 0, 0, 0, 0, true}};
  f.links = {{{0x10, 1, 0x11, 5}, {0x20, 3, 0, 1}, 4, LinkSpeed::NDR},
             {{0x20, 4, 0, 1}, {0xfffffffffffffff0, 1, 0, 0}, 0, LinkSpeed::Unknown}};
  f.partial = {"0xfffffffffffffff0 has no block of its own"};
  return f;
}

void check_same(const Fabric& got, const Fabric& want) {
  CHECK(got.source == want.source);
  CHECK(got.name == want.name);
  CHECK(got.partial == want.partial);
  REQUIRE(got.nodes.size() == want.nodes.size());
  for (size_t i = 0; i < want.nodes.size(); ++i) {
    const FabricNode &g = got.nodes[i], &w = want.nodes[i];
    CHECK(std::tie(g.kind, g.guid, g.sysimgguid, g.description, g.num_ports, g.lid, g.vendor_id, g.device_id,
                   g.seen_only_as_peer) == std::tie(w.kind, w.guid, w.sysimgguid, w.description, w.num_ports,
                                                    w.lid, w.vendor_id, w.device_id, w.seen_only_as_peer));
  }
  REQUIRE(got.links.size() == want.links.size());
  for (size_t i = 0; i < want.links.size(); ++i) {
    const Link &g = got.links[i], &w = want.links[i];
    CHECK(std::tie(g.a.guid, g.a.port, g.a.port_guid, g.a.lid, g.b.guid, g.b.port, g.b.port_guid, g.b.lid, g.width,
                   g.speed) == std::tie(w.a.guid, w.a.port, w.a.port_guid, w.a.lid, w.b.guid, w.b.port,
                                        w.b.port_guid, w.b.lid, w.width, w.speed));
  }
}

// The snapshot text of tiny() with one substring replaced, for the bad cases.
std::string tiny_with(const std::string& from, const std::string& to) {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  std::string text = snapshot_to_json(s);
  auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "no \"" << from << "\" in\n" << text);
  return text.replace(at, from.size(), to);
}

InputError error_of(const std::string& text) {
  try {
    snapshot_from_json(text, "snap.json");
  } catch (const InputError& e) {
    CHECK(e.file() == "snap.json");
    CHECK(std::string(e.what()).find("expected") != std::string::npos);
    return e;
  }
  FAIL("no InputError for:\n" << text);
  throw;
}

// 1-based line of the first occurrence of `needle`.
int line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace

TEST_CASE("snapshot layout: fixed key order, GUIDs as 0x%016x, indent 1") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  std::string text = snapshot_to_json(s);
  CHECK(text.starts_with("{\n \"format\": \"slurmtopo-snapshot\",\n \"version\": 1,\n \"slurmtopo_version\": \"" +
                         slurmtopo_version() + "\",\n \"fabrics\": [\n  {\n"
                         "   \"source\": \"tiny.topo\",\n   \"name\": \"tiny\",\n   \"nodes\": [\n    {\n"
                         "     \"kind\": \"Ca\",\n     \"guid\": \"0x0000000000000010\",\n"
                         "     \"sysimgguid\": \"0x0000000000000013\",\n"
                         "     \"description\": \"gpu001 \\\"mlx5_0\\\"\",\n     \"num_ports\": 1,\n"
                         "     \"lid\": 5,\n     \"vendor_id\": 713,\n     \"device_id\": 4129,\n"
                         "     \"seen_only_as_peer\": false\n    },\n"));
  CHECK(text.find("\"a\": {\n      \"guid\": \"0x0000000000000010\",\n      \"port\": 1,\n"
                  "      \"port_guid\": \"0x0000000000000011\",\n      \"lid\": 5\n     },") != std::string::npos);
  CHECK(text.find("\"width\": 4,\n     \"speed\": \"NDR\"") != std::string::npos);
  CHECK(text.find("\"speed\": \"unknown\"") != std::string::npos);
  CHECK(text.ends_with("}\n"));
  CHECK(snapshot_to_json(s) == text);  // deterministic
  CHECK(looks_like_snapshot(text));
  CHECK_FALSE(looks_like_snapshot("{\"format\": \"something-else\"}"));
  CHECK_FALSE(looks_like_snapshot("vendid=0x2c9\n"));
}

TEST_CASE("snapshot round trip: a hand-made fabric and every public dump") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  for (const char* rel : {"topograph/example.out", "psmn_x5/X5.topofile", "ibtopotool_tests/3.topo",
                          "superbench/ib_traffic_topo_aware_ibnetdiscover.txt"})
    if (auto f = parse_public(rel)) s.fabrics.push_back(*f);
  std::string text = snapshot_to_json(s);
  Snapshot back = snapshot_from_json(text, "snap.json");
  REQUIRE(back.fabrics.size() == s.fabrics.size());
  for (size_t i = 0; i < s.fabrics.size(); ++i) check_same(back.fabrics[i], s.fabrics[i]);
  CHECK(snapshot_to_json(back) == text);
}

TEST_CASE("snapshot bad: JSON syntax errors carry their line") {
  std::string text = tiny_with("\"lid\": 5,\n", "\"lid\": 5,,\n");
  InputError e = error_of(text);
  CHECK(e.line() == line_of(text, ",,"));
  InputError cut = error_of(text.substr(0, text.size() / 2));  // truncated file
  CHECK(cut.line() > 1);
  CHECK(error_of("").line() <= 1);
}

TEST_CASE("snapshot bad: another format or version") {
  InputError version = error_of(tiny_with("\"version\": 1", "\"version\": 6"));
  CHECK(version.line() == 3);
  CHECK(std::string(version.what()).find("version 1 to 5, not 6") != std::string::npos);
  CHECK(error_of(tiny_with("slurmtopo-snapshot", "other-tool")).line() == 2);
  CHECK(error_of("[1, 2]").line() == 1);
}

TEST_CASE("snapshot bad: schema errors name the line of the value") {
  // A malformed GUID: the line of its key.
  std::string guid = tiny_with("\"0x0000000000000013\"", "\"0x00000000000000zz\"");
  InputError e = error_of(guid);
  CHECK(e.line() == line_of(guid, "0x00000000000000zz"));
  CHECK(std::string(e.what()).find("/fabrics/0/nodes/0/sysimgguid") != std::string::npos);
  // Wrong type, out of range, unknown enum.
  std::string ports = tiny_with("\"num_ports\": 65", "\"num_ports\": \"65\"");
  CHECK(error_of(ports).line() == line_of(ports, "\"65\""));
  std::string lid = tiny_with("\"lid\": 5,", "\"lid\": 70000,");
  CHECK(error_of(lid).line() == line_of(lid, "70000"));
  // What no fabric holds: a multicast LID, a cable on port 0, a width no link trains to, a
  // switch without ports.
  std::string multicast = tiny_with("\"lid\": 5,", "\"lid\": 49152,");
  CHECK(error_of(multicast).line() == line_of(multicast, "49152"));
  CHECK(std::string(error_of(multicast).what()).find("\"lid\" to be an integer in 0..49151") != std::string::npos);
  std::string port0 = tiny_with("\"port\": 1,", "\"port\": 0,");
  CHECK(error_of(port0).line() == line_of(port0, "\"port\": 0"));
  std::string width = tiny_with("\"width\": 4,", "\"width\": 3,");
  CHECK(error_of(width).line() == line_of(width, "\"width\": 3"));
  CHECK(std::string(error_of(width).what()).find("1, 2, 4, 8 or 12 lanes (0: unknown), not 3") != std::string::npos);
  std::string portless = tiny_with("\"num_ports\": 65", "\"num_ports\": 0");
  CHECK(error_of(portless).line() == line_of(portless, "\"num_ports\": 0"));
  std::string speed = tiny_with("\"NDR\"", "\"NDR2\"");
  CHECK(error_of(speed).line() == line_of(speed, "NDR2"));
  std::string kind = tiny_with("\"kind\": \"Switch\"", "\"kind\": \"Hub\"");
  CHECK(error_of(kind).line() == line_of(kind, "Hub"));
}

TEST_CASE("snapshot bad: missing and unknown keys") {
  // A node without "lid": the line where that node's object starts.
  std::string missing = tiny_with("     \"lid\": 5,\n", "");
  InputError e = error_of(missing);
  CHECK(std::string(e.what()).find("the key \"lid\"") != std::string::npos);
  CHECK(e.line() == line_of(missing, "\"nodes\"") + 1);
  std::string extra = tiny_with("\"width\": 4,", "\"width\": 4, \"colour\": \"red\",");
  CHECK(error_of(extra).line() == line_of(extra, "colour"));
}

TEST_CASE("snapshot bad: inconsistent fabric") {
  // Two nodes with one GUID, and a cable to a node that is not listed.
  std::string twice = tiny_with("\"guid\": \"0x0000000000000020\"", "\"guid\": \"0x0000000000000010\"");
  InputError dup = error_of(twice);
  CHECK(std::string(dup.what()).find("appears twice") != std::string::npos);
  std::string to_nowhere = tiny_with("\"a\": {\n      \"guid\": \"0x0000000000000010\"",
                                     "\"a\": {\n      \"guid\": \"0x0000000000000099\"");
  InputError nowhere = error_of(to_nowhere);
  CHECK(std::string(nowhere.what()).find("0x0000000000000099 is not in \"nodes\"") != std::string::npos);
  CHECK(nowhere.line() == line_of(to_nowhere, "\"a\": {"));
}

// ---- forwarding tables (format version 2) -------------------------------------------------

namespace {
Snapshot tiny_with_routes() {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  // The leaf's table: LID 0 none, LID 1 itself (port 0), LID 5 (gpu001) down port 3.
  s.fabrics[0].routes.by_switch[0x20] = {255, 0, 255, 255, 255, 3};
  return s;
}
}  // namespace

TEST_CASE("snapshot routes: tables round-trip, as two hex digits per LID, in version 2") {
  const Snapshot s = tiny_with_routes();
  const std::string text = snapshot_to_json(s);
  CHECK(text.find("\"version\": 2") != std::string::npos);
  CHECK(text.find("\"switch\": \"0x0000000000000020\"") != std::string::npos);
  CHECK(text.find("\"lft\": \"ff00ffffff03\"") != std::string::npos);
  const Snapshot back = snapshot_from_json(text, "snap.json");
  REQUIRE(back.fabrics.size() == 1);
  CHECK(back.fabrics[0].routes == s.fabrics[0].routes);
  CHECK(snapshot_to_json(back) == text);
}

TEST_CASE("snapshot routes: without tables the snapshot stays version 1, byte for byte") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  const std::string text = snapshot_to_json(s);
  CHECK(text.find("\"version\": 1") != std::string::npos);
  CHECK(text.find("routes") == std::string::npos);
  CHECK(snapshot_to_json(snapshot_from_json(text, "old.json")) == text);
}

TEST_CASE("snapshot captured: the capture time round-trips in version 4, refused in older versions") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  s.fabrics[0].captured = "2026-12-05T17:42:03Z";
  const std::string text = snapshot_to_json(s);
  CHECK(text.find("\"version\": 4") != std::string::npos);
  CHECK(text.find("\"captured\": \"2026-12-05T17:42:03Z\"") != std::string::npos);
  const Snapshot back = snapshot_from_json(text, "snap.json");
  REQUIRE(back.fabrics.size() == 1);
  CHECK(back.fabrics[0].captured == "2026-12-05T17:42:03Z");
  CHECK(snapshot_to_json(back) == text);

  std::string old = text;
  old.replace(old.find("\"version\": 4"), 12, "\"version\": 1");
  CHECK_THROWS_AS(snapshot_from_json(old, "old.json"), InputError);
}

TEST_CASE("snapshot: one written before slurmtopo_version existed still reads, and writes back with it") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  const std::string text = snapshot_to_json(s);
  const std::string key = "\n \"slurmtopo_version\": \"" + slurmtopo_version() + "\",";
  REQUIRE(text.find(key) != std::string::npos);
  std::string old = text;
  old.erase(old.find(key), key.size());
  CHECK(snapshot_to_json(snapshot_from_json(old, "old.json")) == text);
}

TEST_CASE("snapshot routes bad: a table in a version 1 file, odd hex, a switch not listed") {
  const std::string good = snapshot_to_json(tiny_with_routes());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  InputError v1 = error_of(with("\"version\": 2", "\"version\": 1"));
  CHECK(std::string(v1.what()).find("only the keys of format version 1, not \"routes\"") != std::string::npos);
  std::string odd = with("ff00ffffff03", "ff00ffffff0");
  CHECK(error_of(odd).line() == line_of(odd, "ff00ffffff0\""));
  CHECK(std::string(error_of(with("ff00ffffff03", "FF00ffffff03")).what()).find("hex digits") != std::string::npos);
  InputError ca = error_of(with("\"switch\": \"0x0000000000000020\"", "\"switch\": \"0x0000000000000010\""));
  CHECK(std::string(ca.what()).find("a switch listed in \"nodes\"") != std::string::npos);
}

TEST_CASE("snapshot supported rates: PortInfo's best per end round-trips in version 3, only where known") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  Link& l = s.fabrics[0].links.front();
  l.a.speed_supported = LinkSpeed::HDR;  // a ConnectX-6's PortInfo on an NDR switch port
  l.a.width_supported = 4;
  l.b.speed_supported = LinkSpeed::NDR;
  const std::string text = snapshot_to_json(s);
  CHECK(text.find("\"version\": 3") != std::string::npos);
  CHECK(text.find("\"speed_supported\": \"HDR\",\n      \"width_supported\": 4\n") != std::string::npos);
  CHECK(text.find("\"width_supported\": 0") == std::string::npos);  // unknown is not written
  const Snapshot back = snapshot_from_json(text, "snap.json");
  const Link& got = back.fabrics[0].links.front();
  CHECK(got.a.speed_supported == LinkSpeed::HDR);
  CHECK(got.a.width_supported == 4);
  CHECK(got.b.speed_supported == LinkSpeed::NDR);
  CHECK(got.b.width_supported == 0);
  CHECK(back.fabrics[0].links.back().a.speed_supported == LinkSpeed::Unknown);
  CHECK(snapshot_to_json(back) == text);
  // Older versions hold no such key; a version 3 file without them reads as unknown.
  std::string v1 = text;
  v1.replace(v1.find("\"version\": 3"), 12, "\"version\": 1");
  CHECK(std::string(error_of(v1).what()).find("not \"speed_supported\"") != std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("\"width_supported\": 4"), 20, "\"width_supported\": 3");
  CHECK(std::string(error_of(bad).what()).find("\"width_supported\" to be 1, 2, 4, 8 or 12") != std::string::npos);
}

TEST_CASE("snapshot: a CA known by its port GUID only (iblinkinfo, ibnetdiscover -p) stays so through a snapshot") {
  const Fabric ports =
      load_fabric_file(SLURMTOPO_SOURCE_DIR "/tests/data/ibnetdiscover_forms/ports.ibnetdiscover").front();
  const std::string json = snapshot_to_json(Snapshot{{ports}});
  CHECK(json.find("\"guid_from_port\": true") != std::string::npos);
  const Fabric back = snapshot_from_json(json, "s.json").fabrics.front();
  REQUIRE(back.nodes.size() == ports.nodes.size());
  for (size_t i = 0; i < back.nodes.size(); ++i) CHECK(back.nodes[i].guid_from_port == ports.nodes[i].guid_from_port);
  // Fabrics with node GUIDs write no such key: their snapshots are what they were.
  const Fabric plain =
      load_fabric_file(SLURMTOPO_SOURCE_DIR "/tests/data/ibnetdiscover_forms/plain.ibnetdiscover").front();
  CHECK(snapshot_to_json(Snapshot{{plain}}).find("guid_from_port") == std::string::npos);
}

TEST_CASE("snapshot counters: the port counters read with a sweep round-trip in version 5") {
  Snapshot s;
  s.fabrics.push_back(tiny());
  normalize(s.fabrics[0]);
  CounterReadings& r = s.fabrics[0].counters;
  r.source = "live:mlx5_0/1";
  r.form = "live";
  r.read_at = "2026-12-06T07:05:33Z";
  r.interval_s = 10;
  PortCounters p;
  p.guid = 0x20;
  p.port = 3;
  p.lid = 1;
  for (size_t i = 0; i < kPortCounterCount; ++i) p.set(static_cast<PortCounter>(i), 0, 16);
  p.read &= ~(1u << static_cast<int>(PortCounter::PortXmitWait));  // a PMA without XmitWait
  p.set(PortCounter::SymbolErrorCounter, 500, 16);
  p.set(PortCounter::LinkDownedCounter, 255, 8);  // stuck
  p.rated = 1u << static_cast<int>(PortCounter::SymbolErrorCounter);
  p.per_second[static_cast<size_t>(PortCounter::SymbolErrorCounter)] = 2.5;
  PortCounters clean;
  clean.guid = 0x20;
  clean.port = 4;
  clean.lid = 1;
  for (size_t i = 0; i < kPortCounterCount; ++i) clean.set(static_cast<PortCounter>(i), 0, 16);
  r.ports = {p, clean};
  const std::string text = snapshot_to_json(s);
  CHECK(text.find("\"version\": 5") != std::string::npos);
  CHECK(text.find("\"SymbolErrorCounter\": 500") != std::string::npos);
  CHECK(text.find("\"PortXmitWait\"") != std::string::npos);  // unread
  const Snapshot back = snapshot_from_json(text, "snap.json");
  REQUIRE(back.fabrics[0].counters.ports.size() == 2);
  const PortCounters& q = back.fabrics[0].counters.ports[0];
  CHECK(q[PortCounter::SymbolErrorCounter] == 500);
  CHECK(q.maxed(PortCounter::LinkDownedCounter));
  CHECK_FALSE(q.has(PortCounter::PortXmitWait));
  CHECK(q.has(PortCounter::PortRcvErrors));
  CHECK(q.has_rate(PortCounter::SymbolErrorCounter));
  CHECK(q.per_second[static_cast<size_t>(PortCounter::SymbolErrorCounter)] == 2.5);
  CHECK(back.fabrics[0].counters.interval_s == 10);
  CHECK(snapshot_to_json(back) == text);

  std::string bad = text;
  bad.replace(bad.find("\"SymbolErrorCounter\": 500"), 25, "\"SymbolErrors\": 500");
  const InputError e = error_of(bad);
  CHECK(std::string(e.what()).find("a port counter name (SymbolErrorCounter, ..., PortXmitWait), not \"SymbolErrors\"") !=
        std::string::npos);
  CHECK(e.line() == line_of(bad, "\"SymbolErrors\": 500"));
  std::string old = text;
  old.replace(old.find("\"version\": 5"), 12, "\"version\": 4");
  CHECK_THROWS_AS(snapshot_from_json(old, "old.json"), InputError);
}
