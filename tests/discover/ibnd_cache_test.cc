// libibnetdisc caches, read through the real ibnd_load_fabric. samples/ibsim-small.cache and
// samples/ibsim-small.ibnetdiscover come from one ibnetdiscover sweep of an ibsim fabric
// (samples/README.md), so the two readers must agree on every field.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include <unistd.h>

#include "base/input_error.h"
#include "discover/ibnd_cache.h"
#include "discover/ibnetdiscover_text.h"

using namespace slurmtopo;

namespace {

const std::string kCache = SLURMTOPO_SOURCE_DIR "/samples/ibsim-small.cache";
const std::string kText = SLURMTOPO_SOURCE_DIR "/samples/ibsim-small.ibnetdiscover";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A scratch file removed at scope exit.
struct TempFile {
  explicit TempFile(const std::string& name, const std::string& bytes)
      : path((std::filesystem::temp_directory_path() / ("slurmtopo-cache-test-" + std::to_string(::getpid()) + "-" + name))
                 .string()) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

InputError error_of(const std::string& path) {
  try {
    load_ibnd_cache(path);
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 0);  // a binary file has no lines
    return e;
  }
  FAIL("no InputError for " << path);
  throw;
}

}  // namespace

TEST_CASE("ibnd cache: the sample loads to the same fabric as its ibnetdiscover text") {
  Fabric cache = load_ibnd_cache(kCache);
  Fabric text = parse_ibnetdiscover_text(read_file(kText), kText);
  CHECK(cache.source == kCache);
  REQUIRE(cache.nodes.size() == text.nodes.size());
  for (size_t i = 0; i < text.nodes.size(); ++i) {
    const FabricNode &c = cache.nodes[i], &t = text.nodes[i];
    INFO("node 0x" << guid_hex(t.guid) << " " << t.description);
    CHECK(std::tie(c.kind, c.guid, c.sysimgguid, c.description, c.num_ports, c.lid, c.vendor_id, c.device_id,
                   c.seen_only_as_peer) == std::tie(t.kind, t.guid, t.sysimgguid, t.description, t.num_ports,
                                                    t.lid, t.vendor_id, t.device_id, t.seen_only_as_peer));
  }
  REQUIRE(cache.links.size() == text.links.size());
  for (size_t i = 0; i < text.links.size(); ++i) {
    const Link &c = cache.links[i], &t = text.links[i];
    INFO("link 0x" << guid_hex(t.a.guid) << "[" << t.a.port << "]");
    CHECK(std::tie(c.a.guid, c.a.port, c.a.port_guid, c.a.lid, c.b.guid, c.b.port, c.b.port_guid, c.b.lid, c.width,
                   c.speed) == std::tie(t.a.guid, t.a.port, t.a.port_guid, t.a.lid, t.b.guid, t.b.port,
                                        t.b.port_guid, t.b.lid, t.width, t.speed));
  }
  CHECK(cache.partial.empty());
}

TEST_CASE("ibnd cache: what the sample fabric is") {
  Fabric f = load_ibnd_cache(kCache);
  // samples/ibsim-small.net: 2 spines + 2 leaves (41-port MQM8700), 5 HCAs.
  int switches = 0, cas = 0;
  for (const auto& n : f.nodes) (n.kind == NodeKind::Switch ? switches : cas)++;
  CHECK(switches == 4);
  CHECK(cas == 5);
  // 4 spine-leaf cables + 6 HCA cables (gpu003 is dual-ported), HDR via the extended speed
  // field, and spine02-leaf02 trained at 1x.
  REQUIRE(f.links.size() == 10);
  int hdr4 = 0, hdr1 = 0;
  for (const auto& l : f.links) {
    CHECK(l.speed == LinkSpeed::HDR);
    hdr4 += l.width == 4;
    hdr1 += l.width == 1;
  }
  CHECK(hdr4 == 9);
  CHECK(hdr1 == 1);
  // OpenSM gave every port a LID; HCA port GUIDs are node GUID + port in ibsim.
  for (const auto& n : f.nodes) CHECK(n.lid != 0);
  for (const auto& l : f.links)
    for (const LinkEnd* e : {&l.a, &l.b})
      if (f.find(e->guid)->kind == NodeKind::Ca) CHECK(e->port_guid == e->guid + static_cast<uint64_t>(e->port));
}

TEST_CASE("ibnd cache: recognised by its magic number") {
  std::string bytes = read_file(kCache);
  CHECK(looks_like_ibnd_cache(bytes.substr(0, 4096)));
  CHECK_FALSE(looks_like_ibnd_cache("vendid=0x2c9\n"));
  CHECK_FALSE(looks_like_ibnd_cache(std::string("\x2b\x83\xe7", 3)));  // too short to tell
}

TEST_CASE("ibnd cache bad: truncated copies") {
  std::string bytes = read_file(kCache);
  // Cut inside the node records, inside the port records, and inside the 28-byte header.
  for (size_t keep : {bytes.size() / 3, bytes.size() - 5, size_t{20}}) {
    CAPTURE(keep);
    TempFile cut("truncated", bytes.substr(0, keep));
    InputError e = error_of(cut.path);
    CHECK((std::string(e.what()).find("cut off") != std::string::npos));
  }
}

TEST_CASE("ibnd cache bad: an LMC beyond 7 is refused before libibnetdisc allocates 2^LMC LIDs") {
  std::string bytes = read_file(kCache);
  // The sample's node records end at 3457 (9 nodes, 174 port keys); port record 141 starts at
  // 3457 + 140 * 95 and holds its LMC at byte 12. The fuzzer found this flip: minutes of malloc.
  const size_t at = 3457 + 140 * 95 + 12;
  REQUIRE(bytes[at] == 0);
  bytes[at] = 32;
  TempFile damaged("lmc", bytes);
  InputError e = error_of(damaged.path);
  CHECK(std::string(e.what()).find("expected an LMC of 0 to 7 in port record 141, found 32") != std::string::npos);
}

TEST_CASE("ibnd cache bad: a port number beyond the node's NumPorts is refused before libibnetdisc writes past its array") {
  std::string bytes = read_file(kCache);
  // Node record 1 starts after the 28-byte header; its NumPorts is byte 77, and its one port
  // key (port 1) follows the 207-byte record. libibnetdisc 44 stores that port at ports[1] of a
  // one-entry array and later frees what lies past it (the fuzzer's bad free, in CI).
  const size_t num_ports = 28 + 77;
  REQUIRE(bytes[num_ports] == 1);
  REQUIRE(bytes[28 + 206] == 1);
  bytes[num_ports] = 0;
  TempFile damaged("numports", bytes);
  InputError e = error_of(damaged.path);
  CHECK(std::string(e.what()).find("expected port numbers up to the node's NumPorts (0) in node record 1, found port 1") !=
        std::string::npos);
}

TEST_CASE("ibnd cache bad: a port record no node lists is refused before libibnetdisc links and frees it") {
  std::string bytes = read_file(kCache);
  // Port record 1 starts where the node records end (3457); its port number is byte 8.
  const size_t port_num = 3457 + 8;
  REQUIRE(static_cast<unsigned char>(bytes[port_num]) < 200);
  bytes[port_num] = static_cast<char>(200);
  TempFile damaged("unclaimed", bytes);
  InputError e = error_of(damaged.path);
  CHECK(std::string(e.what()).find("port record 1 (port 200) is listed by no node, by another node, or repeated") != std::string::npos);
}

TEST_CASE("ibnd cache bad: another cache version") {
  std::string bytes = read_file(kCache);
  bytes[4] = 2;  // the little-endian version word after the magic
  TempFile other("version", bytes);
  InputError e = error_of(other.path);
  CHECK(std::string(e.what()).find("expected libibnetdisc cache version 1, found version 2") != std::string::npos);
}

TEST_CASE("ibnd cache bad: not a cache, missing file") {
  TempFile text("text", "vendid=0x2c9\n");
  CHECK(std::string(error_of(text.path).what()).find("no cache magic number") != std::string::npos);
  InputError missing = error_of("/nonexistent/slurmtopo.cache");
  CHECK(std::string(missing.what()).find("cannot open: No such file or directory") != std::string::npos);
}
