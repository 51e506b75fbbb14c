// `slurmtopo discover fabric`: the fabric swept live through libibnetdisc (ibnd_discover_fabric,
// the sweep ibnetdiscover runs), and optionally every switch's linear forwarding table read
// with SMP LinearForwardingTable queries (libibmad), as dump_fts reads them.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "discover/fabric.h"
#include "discover/lft.h"

namespace slurmtopo {

struct LiveOptions {
  std::string ca;            // "" = the first CA libibumad finds
  int port = 0;              // 0 = the CA's first active port
  unsigned timeout_ms = 0;   // per MAD; 0 = libibnetdisc's default
  unsigned retries = 0;      // 0 = libibnetdisc's default
  unsigned max_hops = 0;     // 0 = no limit
  unsigned smp_window = 0;   // SMPs on the wire at once; 0 = kDefaultSmpWindow (live_fabric.cc)
  bool routes = false;       // also read the forwarding tables
  bool counters = false;     // also read every cabled port's counters (discover/pma_reads.h)
  double interval_s = 0;     // read them twice this far apart, for rates
  bool reset_counters = false;  // then reset their error counters and PortXmitWait
  unsigned pma_window = 0;   // PMA queries on the wire at once; 0 = kDefaultPmaWindow
};

// What the sweep has found so far; bumped by the sweep thread, read by whoever shows progress.
struct LiveProgress {
  std::atomic<long> switches{0}, cas{0};                // nodes found
  std::atomic<long> lft_switches{0}, lft_done{0};       // forwarding tables: to read, read
  std::atomic<bool> reading_counters{false};            // the port counters are being read
};

// Sweeps the subnet behind the port. Throws InputError("live:<ca>/<port>", 0, why) when the
// port cannot be used, has no LID (no subnet manager has swept yet), or the fabric stops
// answering mid-sweep (nothing usable comes back then). A sweep that completes but did not
// reach everything returns the fabric with `partial` saying what is missing; it is named after
// the port ("mlx5_0-1", source "live:mlx5_0/1"). With options.counters the fabric carries them
// (Fabric::counters); ports that did not answer are named in `partial`, and `reset` (how many
// ports' counters were reset) is set. `tick` runs every
// ~200 ms on the calling thread while the sweep runs.
Fabric discover_live_fabric(const LiveOptions& options, const std::shared_ptr<LiveProgress>& progress,
                            const std::function<void()>& tick, int* reset = nullptr);

// The counters of every cabled port of `fabric`, read live without a sweep: the fabric was swept
// earlier (a snapshot, an ibnd cache, a dump) and its LIDs are still the subnet's. Throws
// InputError as discover_live_fabric does, and when the local port is not in `fabric` (a file
// of another subnet). Returns it with Fabric::counters set; `reset` as discover_live_fabric.
Fabric read_live_counters(Fabric fabric, const LiveOptions& options, const std::function<void()>& tick,
                          int* reset = nullptr);

// The tables of `fabric`'s switches out of a dump (`--routes FILE`) that may hold more. Throws
// InputError(path, 0, ...) when none is for a switch of this fabric (a dump of another
// subnet); `left_out` counts the tables for switches the sweep did not find.
ForwardingTables tables_for_fabric(ForwardingTables all, const std::string& path, const Fabric& fabric,
                                   size_t& left_out);

}  // namespace slurmtopo
