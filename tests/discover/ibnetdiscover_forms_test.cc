// Every form an admin keeps ibnetdiscover's output in gives the fabric plain ibnetdiscover
// gives, or is refused with a message naming the form and what to run instead
// (tests/data/ibnetdiscover_forms/README.md: captured from one ibsim fabric).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "base/input_error.h"
#include "discover/fabric_file.h"
#include "discover/ibnetdiscover_ports_text.h"
#include "discover/ibnetdiscover_text.h"
#include "tests/read_data.h"

using namespace slurmtopo;

namespace {
const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/ibnetdiscover_forms/";

std::string read(const std::string& name) { return slurmtopo::testing::read_data(kData + name); }

Fabric load(const std::string& name) { return load_fabric_file(kData + name).front(); }

// Everything a reader puts in a Fabric but where it came from.
void check_same(const Fabric& got, const Fabric& want) {
  REQUIRE(got.nodes.size() == want.nodes.size());
  for (size_t i = 0; i < got.nodes.size(); ++i) {
    const FabricNode &g = got.nodes[i], &w = want.nodes[i];
    CAPTURE(w.description);
    CHECK(std::tie(g.kind, g.guid, g.sysimgguid, g.description, g.num_ports, g.lid, g.vendor_id, g.device_id,
                   g.seen_only_as_peer, g.guid_from_port) ==
          std::tie(w.kind, w.guid, w.sysimgguid, w.description, w.num_ports, w.lid, w.vendor_id, w.device_id,
                   w.seen_only_as_peer, w.guid_from_port));
  }
  REQUIRE(got.links.size() == want.links.size());
  for (size_t i = 0; i < got.links.size(); ++i) {
    const Link &g = got.links[i], &w = want.links[i];
    CHECK(std::tie(g.a.guid, g.a.port, g.a.port_guid, g.a.lid, g.b.guid, g.b.port, g.b.port_guid, g.b.lid, g.width,
                   g.speed) == std::tie(w.a.guid, w.a.port, w.a.port_guid, w.a.lid, w.b.guid, w.b.port,
                                        w.b.port_guid, w.b.lid, w.width, w.speed));
  }
  CHECK(got.partial == want.partial);
}

// What the forms agree on whatever GUIDs they key CAs by: nodes by description, cables by
// (description, port) pairs with their width and speed.
using Model = std::pair<std::set<std::tuple<std::string, NodeKind, int, int>>,
                        std::set<std::tuple<std::string, int, std::string, int, int, LinkSpeed>>>;
Model model(const Fabric& f) {
  Model m;
  for (const auto& n : f.nodes) m.first.insert({n.description, n.kind, n.num_ports, n.lid});
  for (const auto& l : f.links) {
    auto a = std::make_pair(f.find(l.a.guid)->description, l.a.port);
    auto b = std::make_pair(f.find(l.b.guid)->description, l.b.port);
    if (b < a) std::swap(a, b);
    m.second.insert({a.first, a.second, b.first, b.second, l.width, l.speed});
  }
  return m;
}

InputError refusal_of(const std::string& name) {
  try {
    load_fabric_file(kData + name);
  } catch (const InputError& e) {
    CHECK(e.file() == kData + name);
    return e;
  }
  FAIL("no InputError for " << name);
  throw;
}

InputError ports_error(const std::string& text) {
  try {
    parse_ibnetdiscover_ports_text(text, "ports.txt");
  } catch (const InputError& e) {
    CHECK(e.file() == "ports.txt");
    return e;
  }
  FAIL("no InputError for:\n" << text);
  throw;
}

// What the error says after its "file:line: " prefix.
std::string said(const InputError& e) {
  const std::string prefix = e.file() + (e.line() ? ":" + std::to_string(e.line()) : std::string()) + ": ";
  const std::string all = e.what();
  CHECK(all.starts_with(prefix));
  return all.substr(std::min(prefix.size(), all.size()));
}

std::string crlf(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}
}  // namespace

TEST_CASE("ibnetdiscover forms: -p (ports report) is recognised and gives plain ibnetdiscover's fabric") {
  CHECK(detect_fabric_format(kData + "ports.ibnetdiscover") == FabricFormat::IbnetdiscoverPorts);
  const Fabric plain = load("plain.ibnetdiscover");
  const Fabric ports = load("ports.ibnetdiscover");
  CHECK(model(ports) == model(plain));
  CHECK(ports.partial.empty());
  for (const auto& n : ports.nodes) {
    CAPTURE(n.description);
    if (n.kind == NodeKind::Switch) {
      CHECK(plain.find(n.guid));  // a switch's port GUID is its node GUID
      CHECK(n.num_ports == 12);   // unconnected ports are printed too
      CHECK_FALSE(n.guid_from_port);
    } else {
      // ibsim: a CA's port 1 GUID is its node GUID + 1; -p prints only the port GUID.
      REQUIRE(plain.find(n.guid - 1));
      CHECK(plain.find(n.guid - 1)->description == n.description);
      CHECK(n.guid_from_port);
    }
  }
  for (const auto& l : ports.links)
    for (const LinkEnd* e : {&l.a, &l.b})
      CHECK(e->port_guid == (ports.find(e->guid)->kind == NodeKind::Switch ? 0 : e->guid));
}

TEST_CASE("ibnetdiscover forms: -s progress lines are skipped, in the dump and in -p") {
  CHECK(detect_fabric_format(kData + "show.ibnetdiscover") == FabricFormat::IbnetdiscoverText);
  check_same(load("show.ibnetdiscover"), load("plain.ibnetdiscover"));
  CHECK(detect_fabric_format(kData + "ports-show.ibnetdiscover") == FabricFormat::IbnetdiscoverPorts);
  check_same(load("ports-show.ibnetdiscover"), load("ports.ibnetdiscover"));
}

TEST_CASE("ibnetdiscover forms: -g (grouping) gives the plain fabric") {
  check_same(load("grouped.ibnetdiscover"), load("plain.ibnetdiscover"));
}

TEST_CASE("ibnetdiscover forms: a script(1) session (header, coloured prompt, CRLF, exit, footer) reads as the dump") {
  CHECK(detect_fabric_format(kData + "script-session.ibnetdiscover") == FabricFormat::IbnetdiscoverText);
  check_same(load("script-session.ibnetdiscover"), load("plain.ibnetdiscover"));
  CHECK(detect_fabric_format(kData + "pasted-ports.ibnetdiscover") == FabricFormat::IbnetdiscoverPorts);
  check_same(load("pasted-ports.ibnetdiscover"), load("ports.ibnetdiscover"));
}

TEST_CASE("ibnetdiscover forms: CRLF line ends alone change nothing, in every text reader") {
  const std::string plain = read("plain.ibnetdiscover"), ports = read("ports.ibnetdiscover");
  check_same(parse_ibnetdiscover_text(crlf(plain), "x"), parse_ibnetdiscover_text(plain, "x"));
  check_same(parse_ibnetdiscover_ports_text(crlf(ports), "x"), parse_ibnetdiscover_ports_text(ports, "x"));
}

TEST_CASE("ibnetdiscover forms: an error in a terminal capture names the file's own line") {
  // Line 9 of the session is the dump's "vendid=0x0" line 6 (3 lines of session before it).
  std::string text = read("script-session.ibnetdiscover");
  const size_t at = text.find("devid=0x0");
  REQUIRE(at != std::string::npos);
  text.replace(at, 9, "devid=zz0");
  const std::string path = "/tmp/slurmtopo-forms-test-session.txt";
  std::ofstream(path, std::ios::binary) << text;
  try {
    load_fabric_file(path);
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(e.line() == 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')));
  }
  std::remove(path.c_str());
}

TEST_CASE("ibnetdiscover forms: node lists and --diff output are refused with what to run instead") {
  for (const char* name : {"list.ibnetdiscover", "ibhosts.ibnetdiscover", "ibswitches.ibnetdiscover"}) {
    CAPTURE(name);
    const InputError e = refusal_of(name);
    CHECK(e.line() == 1);
    CHECK(said(e) ==
          "this is a node list (ibnetdiscover -l/-H/-S/-R, ibhosts or ibswitches): it names nodes but no cables; run "
          "plain ibnetdiscover (or iblinkinfo) and give its output");
  }
  const InputError diff = refusal_of("diff.ibnetdiscover");
  CHECK(diff.line() == 7);  // the first "< " line, after the unchanged header of its node
  CHECK(said(diff).starts_with("this is ibnetdiscover --diff output"));
  CHECK(said(diff).find("run plain ibnetdiscover") != std::string::npos);
}

TEST_CASE("ibnetdiscover forms: a --diff line deep in a dump is named by the dump reader too") {
  std::string text = read("plain.ibnetdiscover") + "\n> [3]\t\"S-0000000000200002\"[4]\t\t# \"x\" lid 4 4xSDR\n";
  try {
    parse_ibnetdiscover_text(text, "d.topo");
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(said(e).starts_with("this is ibnetdiscover --diff output"));
  }
}

TEST_CASE("ibnetdiscover -p: errors say which column, on which line") {
  const std::string good =
      "SW     2  1 0x0000000000200000 4x SDR - CA     1  1 0x0000000000100001 ( 'leaf' - 'gpu001 mlx5_0' )\n";
  CHECK(parse_ibnetdiscover_ports_text(good, "ports.txt").links.size() == 1);
  auto message = [&](const std::string& text) { return said(ports_error(text)); };
  CHECK(message("SW     2  1 0x0000000000200000 5x SDR - CA     1  1 0x0000000000100001 ( 'a' - 'b' )\n") ==
        "expected a width 1x, 2x, 4x, 8x or 12x, found \"5x\"");
  CHECK(message("SW     2  1 0x0000000000200000 4x ZDR - CA     1  1 0x0000000000100001 ( 'a' - 'b' )\n") ==
        "expected a speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR, found \"ZDR\"");
  CHECK(message("SW     2  0 0x0000000000200000 4x SDR - CA     1  1 0x0000000000100001 ( 'a' - 'b' )\n") ==
        "expected the local end's port number 1-255, found \"0\"");
  CHECK(message("SW     2  1 0x0000000000200000 4x SDR - XX     1  1 0x0000000000100001 ( 'a' - 'b' )\n")
            .find("the far end's node kind SW, CA or RT") != std::string::npos);
  CHECK(message("SW     2  1 0x0000000000200000 4x SDR - CA     1  1 0x0000000000100001 'a' - 'b'\n") ==
        "expected both descriptions \"( 'local' - 'remote' )\", found \"'a' - 'b'\"");
  CHECK(message("SW     2  1 0x0000000000200000 4x SDR   junk\n") ==
        "expected \"- \" and the far end, or the port's own 'description' (no cable), found \"junk\"");
  CHECK(ports_error(good + "SW     2  1 0x0000000000200000 4x SDR - CA 3 1 0x0000000000100003 ( 'leaf' - 'gpu002' )\n")
            .line() == 2);
  CHECK(message(good + "SW     2  1 0x0000000000200000 4x SDR - CA 3 1 0x0000000000100003 ( 'leaf' - 'gpu002' )\n") ==
        "expected 0x0000000000200000[1] to be cabled to 0x0000000000100001[1] as line 1 says, found a cable to "
        "0x0000000000100003[1]");
  CHECK(message(good + "CA     2  5 0x0000000000200000 4x SDR                 'leaf'\n") ==
        "expected 0x0000000000200000 to be a Switch as line 1 says, found \"a Ca\"");
  CHECK(said(ports_error("\n\n")).starts_with("no port line"));
}

TEST_CASE("ibnetdiscover -p: a far end with no line of its own is kept and the sweep marked partial") {
  const Fabric f = parse_ibnetdiscover_ports_text(
      "SW     2  1 0x0000000000200000 4x HDR - CA     9  1 0x0000000000100001 ( 'leaf' - 'gpu001 mlx5_0' )\n",
      "ports.txt");
  const FabricNode* ca = f.find(0x100001);
  REQUIRE(ca);
  CHECK(ca->seen_only_as_peer);
  CHECK(ca->description == "gpu001 mlx5_0");
  CHECK(ca->lid == 9);
  REQUIRE(f.partial.size() == 1);
  CHECK(f.partial[0].find("has no line of its own") != std::string::npos);
  CHECK(f.links.front().width == 4);
  CHECK(f.links.front().speed == LinkSpeed::HDR);
}

TEST_CASE("ibnetdiscover -p: recognised past progress and diagnostics, not from other text") {
  CHECK(looks_like_ibnetdiscover_ports(
      "DR path slid 0; dlid 0; 0 -> new Channel Adapter {0000000000100000} portnum 1 lid 0-0 \"\"\n"
      "ibwarn: [123] some warning\n"
      "SW     3 12 0x0000000000200001 4x SDR                                    'MF0;leaf02:MQM8700/U1'\n"));
  CHECK_FALSE(looks_like_ibnetdiscover_ports("Switch\t12 \"S-0000000000200001\"\t\t# \"x\"\n"));
  CHECK_FALSE(looks_like_ibnetdiscover_ports("SW leaf01 1 2\n"));
}

TEST_CASE("ibnetdiscover forms: -s on a large fabric, whose progress fills more than the first 4 KiB") {
  std::string progress;
  for (int i = 0; i < 200; ++i)
    progress += "DR path slid 0; dlid 0; 0,1," + std::to_string(i % 40 + 1) +
                " -> known Switch {0000000000200002} portnum 0 lid 4-4 \"MF0;spine01:MQM8700/U1\"\n";
  REQUIRE(progress.size() > 4096);
  for (const char* name : {"plain.ibnetdiscover", "ports.ibnetdiscover"}) {
    CAPTURE(name);
    const std::string path = "/tmp/slurmtopo-forms-test-progress.txt";
    std::ofstream(path, std::ios::binary) << progress << read(name);
    CHECK(detect_fabric_format(path) == (std::string(name) == "plain.ibnetdiscover" ? FabricFormat::IbnetdiscoverText
                                                                                   : FabricFormat::IbnetdiscoverPorts));
    check_same(load_fabric_file(path).front(), load(name));
    std::remove(path.c_str());
  }
}

TEST_CASE("ibnetdiscover forms: a Slurm topology file given as --fabric says to give it to --topology") {
  // Azure's `sharp_cmd topology` output (../shared/fabrics/public/azure_cyclecloud/topology.txt)
  // looks like this: switches and the port GUIDs under them, no cable.
  const std::string path = (std::filesystem::temp_directory_path() / "slurmtopo_forms_topology.txt").string();
  std::ofstream(path) << "# from sharp_cmd\nSwitchName=ibsw1 Nodes=0x155dfffd33ff7d,0x155dfffd33ffbd\n"
                         "SwitchName=ibsw9 Switches=ibsw[1-2]\n";
  try {
    load_fabric_file(path);
    FAIL("no InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 2);
    CHECK(said(e).starts_with("this is a Slurm topology file"));
    CHECK(said(e).find("give it to --topology") != std::string::npos);
  }
  std::filesystem::remove(path);
}
