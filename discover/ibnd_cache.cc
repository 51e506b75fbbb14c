// libibnetdisc cache → Fabric. The cache is read by the library itself (ibnd_load_fabric), so
// whatever libibnetdisc can load we can. We check the header and the records first: to say
// precisely what is wrong with a file the library would just reject, and because libibnetdisc
// 44 trusts the records' numbers and cross references, and on a damaged file writes past its
// arrays or hands back freed memory (fuzzing found both) instead of failing. The conversion is
// the live sweep's (discover/ibnd_fabric.h).
#include "discover/ibnd_cache.h"

#include <infiniband/ibnetdisc.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <utility>

#include "base/files.h"
#include "base/input_error.h"
#include "discover/ibnd_fabric.h"

namespace slurmtopo {
namespace {

// libibnetdisc's cache header (ibnetdisc_cache.c): little-endian magic, then version, node
// count, port count, "from" node GUID and max hops: 28 bytes.
constexpr uint32_t kCacheMagic = 0x8FE7832B;
constexpr uint32_t kCacheVersion = 1;
constexpr size_t kCacheHeaderLen = 28;

uint32_t little_endian32(const unsigned char* p) {
  return p[0] | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

struct FabricDeleter {
  void operator()(ibnd_fabric_t* f) const { ibnd_destroy_fabric(f); }
};

// The records after the header (ibnetdisc_cache.c): a node is 207 bytes and 9 per port key it
// stores (port GUID, port number), a port 95 bytes with its LMC at byte 12. libibnetdisc
// enters 2^LMC LIDs per port in a hash, one allocation each, so a damaged LMC (32) keeps it
// allocating for minutes: LMC is 0-7 by the IB spec, and anything else is refused here,
// before the library sees it.
constexpr size_t kNodeRecordLen = 15 + 3 * 64, kPortKeyLen = 9, kPortRecordLen = 31 + 64, kLmcAt = 12;
constexpr size_t kNodeGuidAt = 2 + 1 + 1 + 64;           // after SM LID, LMC, enhanced SP0, SwitchInfo
constexpr size_t kNumPortsAt = kNodeGuidAt + 8 + 1;      // after the GUID and the node type
constexpr size_t kPortNodeGuidAt = 8 + 1 + 1 + 2 + 1 + 64;  // after GUID, port, ext. port, LID, LMC, PortInfo

void check_port_records(const std::string& path, std::ifstream& in, uint32_t nodes, uint32_t ports) {
  auto cut_off = [&] {
    return InputError(path, 0, "expected " + std::to_string(nodes) + " node and " + std::to_string(ports) +
                                   " port records, as the cache header says (file cut off or corrupted?)");
  };
  auto guid_at = [](const unsigned char* at) {
    uint64_t guid;
    std::memcpy(&guid, at, sizeof guid);
    return guid;
  };
  // (port GUID, port number) as written, each port key of the nodes, each port record.
  auto key_of = [&](const unsigned char* at) { return std::pair<uint64_t, unsigned>{guid_at(at), at[8]}; };
  std::map<std::pair<uint64_t, unsigned>, uint64_t> claimed;  // port key → the node GUID that lists it
  unsigned char node[kNodeRecordLen], key[kPortKeyLen];
  for (uint32_t i = 0; i < nodes; ++i) {
    if (!in.read(reinterpret_cast<char*>(node), sizeof node)) throw cut_off();
    // libibnetdisc stores each port at ports[port number] of an array NumPorts + 1 long,
    // unchecked: a larger number writes past it and later frees whatever lies there.
    for (unsigned k = 0; k < node[kNodeRecordLen - 1]; ++k) {
      if (!in.read(reinterpret_cast<char*>(key), sizeof key)) throw cut_off();
      if (key[kPortKeyLen - 1] > node[kNumPortsAt])
        throw InputError(path, 0, "expected port numbers up to the node's NumPorts (" +
                                      std::to_string(node[kNumPortsAt]) + ") in node record " +
                                      std::to_string(i + 1) + ", found port " +
                                      std::to_string(key[kPortKeyLen - 1]) + " (corrupted cache?)");
      claimed.emplace(key_of(key), guid_at(node + kNodeGuidAt));
    }
  }
  unsigned char port[kPortRecordLen];
  for (uint32_t i = 0; i < ports; ++i) {
    if (!in.read(reinterpret_cast<char*>(port), sizeof port)) throw cut_off();
    if (port[kLmcAt] > 7)
      throw InputError(path, 0, "expected an LMC of 0 to 7 in port record " + std::to_string(i + 1) + ", found " +
                                    std::to_string(port[kLmcAt]) + " (corrupted cache?)");
    // libibnetdisc 44 links a port record no node claims (or a second one for the same port)
    // into the fabric, then frees it: the fabric it returns points at freed memory.
    // A port whose node GUID is not the node that lists it is put in one node's port array and
    // pointed at another: refused too.
    auto it = claimed.find(key_of(port));
    if (it == claimed.end() || it->second != guid_at(port + kPortNodeGuidAt))
      throw InputError(path, 0, "expected every port record to be one that its node's record lists, once; port record " +
                                    std::to_string(i + 1) + " (port " + std::to_string(port[8]) +
                                    ") is listed by no node, by another node, or repeated (corrupted cache?)");
    claimed.erase(it);
  }
}

// Reads and checks the header ourselves; ibnd_load_fabric would only say "failed".
void check_header(const std::string& path) {
  expect_readable_kind(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  unsigned char header[kCacheHeaderLen];
  in.read(reinterpret_cast<char*>(header), sizeof header);
  if (in.gcount() < 8 || little_endian32(header) != kCacheMagic)
    throw InputError(path, 0, "expected a libibnetdisc cache (ibnetdiscover --cache): no cache magic number");
  uint32_t version = little_endian32(header + 4);
  if (version != kCacheVersion)
    throw InputError(path, 0, "expected libibnetdisc cache version " + std::to_string(kCacheVersion) +
                                  ", found version " + std::to_string(version));
  if (in.gcount() < static_cast<std::streamsize>(kCacheHeaderLen))
    throw InputError(path, 0, "expected a complete libibnetdisc cache header (file cut off)");
  check_port_records(path, in, little_endian32(header + 8), little_endian32(header + 12));
}

}  // namespace

Fabric load_ibnd_cache(const std::string& path) {
  check_header(path);
  std::unique_ptr<ibnd_fabric_t, FabricDeleter> ibnd(ibnd_load_fabric(path.c_str(), 0));
  if (!ibnd)
    throw InputError(path, 0, "expected a complete libibnetdisc cache: ibnd_load_fabric could not load it "
                              "(file cut off or corrupted?)");
  Fabric fabric = fabric_from_ibnd(*ibnd);
  fabric.source = path;
  return fabric;
}

bool looks_like_ibnd_cache(std::string_view head) {
  return head.size() >= 4 && little_endian32(reinterpret_cast<const unsigned char*>(head.data())) == kCacheMagic;
}

}  // namespace slurmtopo
