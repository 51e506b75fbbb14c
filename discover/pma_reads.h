// The port counters of every cabled port of a swept fabric, both ends, switches and HCAs,
// read from each port's performance management agent (PMA) over LID-routed GMPs through
// libibumad, many queries on the wire at once (ibqueryerrors and perfquery send one at a time).
//
// Fewest queries first, since every one costs each PMA on the fabric's management plane:
// PortCounters of each switch with PortSelect 255 (its ports summed) and of each HCA port, all at
// once. A sum of zero proves every port of that switch zero (the counters only count up, and stop
// at their maximum); a switch whose sum is not zero, or whose PMA refuses PortSelect 255, is read
// port by port, as ibqueryerrors does. Only where a counter stopped at its 8-, 16- or 32-bit
// maximum is ClassPortInfo asked: with CapabilityMask2 bit 1 (AdditionalPortCountersExtended)
// that port is read again from PortCountersExtended, every error counter and PortXmitWait 64 bits
// wide; otherwise the value stands as "at least", and PortXmitWait is dropped where
// CapabilityMask bit 12 says the PMA does not keep it. (A PMA without it answers the reserved
// field as 0, so an unread PortXmitWait never raises a finding.)
//
// Read twice `interval_s` apart, the second read gives the totals and the change per second
// gives the rates. Nothing is reset unless `reset` is set: then, after the reads, the error
// counters and PortXmitWait of every port read (not the data counters), as ibqueryerrors -k.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "discover/fabric.h"
#include "discover/port_counters.h"

namespace slurmtopo {

struct PmaOptions {
  std::string ca;           // the local HCA and port the queries leave from
  int port = 0;
  unsigned timeout_ms = 0;  // per query; 0 = 1000, libibmad's default
  unsigned retries = 0;     // 0 = 3, libibmad's default
  unsigned window = 0;      // queries on the wire at once; 0 = kDefaultPmaWindow
  double interval_s = 0;    // 0: one read, no rates
  bool reset = false;
};
inline constexpr unsigned kDefaultPmaWindow = 64;

struct PmaReads {
  CounterReadings readings;           // form "live", source "live:<ca>/<port>"
  int reset_ports = 0;                // ports whose counters were reset
  std::vector<std::string> failures;  // "LID 12 port 3: no answer after 4 tries", at most a few
  int failed = 0;                     // ports not read (also readings.failed_queries)
};

// Throws InputError("live:<ca>/<port>", 0, why) when the local port cannot be opened for
// performance management. `answers` is bumped per answer (the sweep's stall watch).
PmaReads read_port_counters(const Fabric& fabric, const PmaOptions& options, std::atomic<long>& answers);

}  // namespace slurmtopo
