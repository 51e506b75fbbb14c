// libibnetdisc cache → Fabric. The cache is read by the library itself (ibnd_load_fabric), so
// whatever libibnetdisc can load we can; we only check the header first, to say precisely
// what is wrong with a file the library would just reject. The conversion is the live
// sweep's (discover/ibnd_fabric.h).
#include "discover/ibnd_cache.h"

#include <infiniband/ibnetdisc.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>

#include "base/crash_guard.h"
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
// stores (port GUID, port number), a port 95 bytes with its LMC at byte 12. libibnetdisc enters 2^LMC LIDs per port in
// a hash, one allocation each, so a damaged LMC (32) keeps it allocating for minutes: LMC is
// 0-7 by the IB spec, and anything else is refused here, before the library sees it.
constexpr size_t kNodeRecordLen = 15 + 3 * 64, kPortKeyLen = 9, kPortRecordLen = 31 + 64, kLmcAt = 12;
constexpr size_t kNumPortsAt = 2 + 1 + 1 + 64 + 8 + 1;  // after SM LID, LMC, enhanced SP0, SwitchInfo, GUID, type

void check_port_records(const std::string& path, std::ifstream& in, uint32_t nodes, uint32_t ports) {
  auto cut_off = [&] {
    return InputError(path, 0, "expected " + std::to_string(nodes) + " node and " + std::to_string(ports) +
                                   " port records, as the cache header says (file cut off or corrupted?)");
  };
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
    }
  }
  unsigned char port[kPortRecordLen];
  for (uint32_t i = 0; i < ports; ++i) {
    if (!in.read(reinterpret_cast<char*>(port), sizeof port)) throw cut_off();
    if (port[kLmcAt] > 7)
      throw InputError(path, 0, "expected an LMC of 0 to 7 in port record " + std::to_string(i + 1) + ", found " +
                                    std::to_string(port[kLmcAt]) + " (corrupted cache?)");
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

// libibnetdisc frees memory it never allocated when some damaged caches fail to load (a
// fuzzer's few flipped bits: ibnd_load_fabric → ibnd_destroy_fabric, a bad free), and no
// header check can foresee every such file. So the cache is loaded once in a child first:
// a crash there is this file's error, named as such, and never takes the caller down.
void check_loads_in_child(const std::string& path) {
  const ChildOutcome trial = run_in_child([&] {
    ibnd_fabric_t* fabric = ibnd_load_fabric(path.c_str(), 0);
    if (fabric) ibnd_destroy_fabric(fabric);
    return fabric ? 0 : 3;
  });
  if (trial.signal)
    throw InputError(path, 0,
                     std::string("expected a libibnetdisc cache that libibnetdisc can load: it crashes on this one (") +
                         strsignal(*trial.signal) +
                         "), so the file is damaged — write it again with `ibnetdiscover --cache FILE`");
}

}  // namespace

Fabric load_ibnd_cache(const std::string& path) {
  check_header(path);
  check_loads_in_child(path);
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
