// Port counters as the subnet's performance management agents keep them (PortCounters,
// PortCountersExtended, PortXmitWait), read live or from the files admins keep: ibqueryerrors,
// perfquery and ibdiagnet's PM file (discover/counters_file.h). Facts only: which counter is
// over which threshold, and what that means for a cable, is graph/link_health.h's business.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

// The error and congestion counters, in PortCounters' order (libibmad fields.c). The data and
// packet counters are not kept: they say how busy a cable is, never that it is faulty.
enum class PortCounter : uint8_t {
  SymbolErrorCounter,
  LinkErrorRecoveryCounter,
  LinkDownedCounter,
  PortRcvErrors,
  PortRcvRemotePhysicalErrors,
  PortRcvSwitchRelayErrors,
  PortXmitDiscards,
  PortXmitConstraintErrors,
  PortRcvConstraintErrors,
  LocalLinkIntegrityErrors,
  ExcessiveBufferOverrunErrors,
  VL15Dropped,
  PortXmitWait,
  Count  // not a counter: how many there are
};
inline constexpr size_t kPortCounterCount = static_cast<size_t>(PortCounter::Count);

struct PortCounterName {
  const char* name;       // libibmad's field name, as ibqueryerrors and perfquery print it
  const char* ibdiagnet;  // ibdiagnet2.pm's key for the 32-bit (or narrower) value
  const char* ibdiagnet_extended;  // … and for its 64-bit copy (not always the same stem)
  int bits;               // its width in PortCounters: all ones means stuck there (no wrap)
  // A total above it is worth a look: infiniband-diags' shipped threshold list
  // (etc/error_thresholds, scripts/ibcheckerrs). -1: not judged on its total (PortXmitWait is
  // "almost always non-zero" on a busy fabric; the list leaves it commented out).
  int64_t threshold;
};
// In PortCounter's order.
std::span<const PortCounterName> port_counter_names();
const char* to_string(PortCounter counter);  // libibmad's name
// A libibmad name ("SymbolErrorCounter") or an ibdiagnet key ("link_down_counter",
// "link_downed_counter_extended"); nullopt for the others (data counters, CounterSelect, …).
std::optional<PortCounter> find_port_counter(std::string_view name);

// Per counter, the total above which a cable end is named (-1: never): the defaults above, or
// site.yaml's counter_thresholds.
using CounterThresholds = std::array<int64_t, kPortCounterCount>;
CounterThresholds default_counter_thresholds();

// One port's counters, as one input gave them.
struct PortCounters {
  // Which port. ibqueryerrors and ibdiagnet name a switch port by the switch's node GUID and an
  // HCA port by its port GUID; perfquery names both by LID only.
  uint64_t guid = 0;          // 0 when only the LID is known
  bool port_guid = false;     // `guid` is the port's GUID, not its node's
  uint16_t lid = 0;           // 0 when the input does not say
  int port = 0;               // 0-254 (0: a switch's management port); kAllPorts: a switch's ports summed
  static constexpr int kAllPorts = 255;
  std::string description;    // the node's description where the input prints one, else ""

  uint32_t read = 0;          // bit per PortCounter: the input gave its value
  uint32_t at_max = 0;        // bit per PortCounter: at its all-ones maximum, so "at least"
  std::array<uint64_t, kPortCounterCount> value{};
  // Change per second between two reads (live, --interval apart); bit per counter that has one:
  // both reads given and neither at its maximum.
  uint32_t rated = 0;
  std::array<double, kPortCounterCount> per_second{};
  int line = 0;               // where the input file gave it (1-based); 0 live

  bool has(PortCounter c) const { return read >> static_cast<int>(c) & 1; }
  bool maxed(PortCounter c) const { return at_max >> static_cast<int>(c) & 1; }
  bool has_rate(PortCounter c) const { return rated >> static_cast<int>(c) & 1; }
  uint64_t operator[](PortCounter c) const { return value[static_cast<size_t>(c)]; }
  // Records a value read as `bits` wide (64 for PortCountersExtended's copies).
  void set(PortCounter c, uint64_t v, int bits);
};

// Every port one input gave, and how it was read.
struct CounterReadings {
  std::string source;      // the file, or "live:mlx5_0/1"
  std::string form;        // "ibqueryerrors", "perfquery", "ibdiagnet2.pm", "live"
  std::string read_at;     // ISO 8601 UTC of the last read; "" when the input does not say
  double interval_s = 0;   // between the two reads that gave the rates; 0 without rates
  // Only counters over these were printed (ibqueryerrors with a threshold file): a counter
  // absent from a port is then below its threshold, not unread. Empty: none given.
  std::vector<std::pair<PortCounter, uint64_t>> printed_above;
  std::vector<PortCounters> ports;  // input order
  int failed_queries = 0;  // ports the reading tool could not query (ibqueryerrors' summary)
};

}  // namespace slurmtopo
