// The port counters of every cabled port of a swept fabric, both ends, switches and HCAs,
// read from each port's performance management agent (PMA) over LID-routed GMPs through
// libibumad, many queries on the wire at once (ibqueryerrors and perfquery send one at a time).
//
// Per node, ClassPortInfo says what its PMA keeps: with CapabilityMask2 bit 1
// (AdditionalPortCountersExtended) every error counter and PortXmitWait are read from
// PortCountersExtended, 64 bits wide; otherwise from PortCounters, PortXmitWait only where
// CapabilityMask bit 12 says it is kept. (PortCountersExtended without bit 1 holds only the data
// and packet counters, which say nothing about a faulty cable: not read.)
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
