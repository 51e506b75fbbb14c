#include "discover/port_counters.h"

namespace slurmtopo {

namespace {

// Widths: IBA PortCounters (libibmad fields.c IB_PC_*_F). ibdiagnet2.pm keys: a real capture of
// ibdiagnet 2.10 on Quantum-2 (docs/port-counters.md); its 32-bit and 64-bit keys differ for
// three counters (link_down_counter / link_downed_counter_extended, …). Thresholds:
// rdma-core infiniband-diags etc/error_thresholds (all lines commented there, as ibqueryerrors
// reports anything above 0 without a file) and scripts/ibcheckerrs.in, which applies them;
// but not PortRcvSwitchRelayErrors (routine on multicast: `ibqueryerrors -c` suppresses it) and
// VL15Dropped (SMPs dropped under a sweep; no data is lost), which say nothing about a cable.
constexpr PortCounterName kNames[] = {
    {"SymbolErrorCounter", "symbol_error_counter", "symbol_error_counter_extended", 16, 10},
    {"LinkErrorRecoveryCounter", "link_error_recovery_counter", "link_error_recovery_counter_extended", 8, 10},
    {"LinkDownedCounter", "link_down_counter", "link_downed_counter_extended", 8, 10},
    {"PortRcvErrors", "port_rcv_errors", "port_rcv_errors_extended", 16, 10},
    {"PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors", "port_rcv_remote_physical_errors_extended", 16, 100},
    {"PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors", "port_rcv_switch_relay_errors_extended", 16, -1},
    {"PortXmitDiscards", "port_xmit_discard", "port_xmit_discards_extended", 16, 100},
    {"PortXmitConstraintErrors", "port_xmit_constraint_errors", "port_xmit_constraint_errors_extended", 8, 100},
    {"PortRcvConstraintErrors", "port_rcv_constraint_errors", "port_rcv_constraint_errors_extended", 8, 100},
    {"LocalLinkIntegrityErrors", "local_link_integrity_errors", "local_link_integrity_errors_extended", 4, 10},
    {"ExcessiveBufferOverrunErrors", "excessive_buffer_errors", "excessive_buffer_overrun_errors_extended", 4, 10},
    {"VL15Dropped", "vl15_dropped", "vl15_dropped_extended", 16, -1},
    {"PortXmitWait", "port_xmit_wait", "port_xmit_wait_extended", 32, -1},
};
static_assert(std::size(kNames) == kPortCounterCount);

}  // namespace

std::span<const PortCounterName> port_counter_names() { return kNames; }

CounterThresholds default_counter_thresholds() {
  CounterThresholds t{};
  for (size_t i = 0; i < kPortCounterCount; ++i) t[i] = kNames[i].threshold;
  return t;
}

const char* to_string(PortCounter counter) { return kNames[static_cast<size_t>(counter)].name; }

std::optional<PortCounter> find_port_counter(std::string_view name) {
  for (size_t i = 0; i < kPortCounterCount; ++i)
    if (name == kNames[i].name || name == kNames[i].ibdiagnet || name == kNames[i].ibdiagnet_extended)
      return static_cast<PortCounter>(i);
  return std::nullopt;
}

void PortCounters::set(PortCounter c, uint64_t v, int bits) {
  const int i = static_cast<int>(c);
  value[i] = v;
  read |= 1u << i;
  const uint64_t max = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  if (v >= max) at_max |= 1u << i;
  else at_max &= ~(1u << i);
}

}  // namespace slurmtopo
