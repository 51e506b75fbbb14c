#include "report/counters_textfile.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "base/atomic_write.h"
#include "base/version.h"
#include "graph/cable_names.h"
#include "report/prometheus_text.h"

namespace slurmtopo {

namespace {

// node_exporter's collector/infiniband_linux.go names, in PortCounter's order.
constexpr const char* kMetric[] = {
    "symbol_error_total",
    "link_error_recovery_total",
    "link_downed_total",
    "port_errors_received_total",
    "port_receive_remote_physical_errors_total",
    "port_receive_switch_relay_errors_total",
    "port_discards_transmitted_total",
    "port_constraint_errors_transmitted_total",
    "port_constraint_errors_received_total",
    "local_link_integrity_errors_total",
    "excessive_buffer_overrun_errors_total",
    "vl15_dropped_total",
    "port_transmit_wait_total",
};
static_assert(std::size(kMetric) == kPortCounterCount);

// What names one end of a cable: a switch and its port, or a host and its HCA (the GUID when
// the HCA names no host).
struct End {
  std::string sw, port, host, hca, guid;
};

class EndNames {
 public:
  explicit EndNames(const Cluster& c) : c_(c), names_(c) {}
  End operator()(int vertex, const LinkEnd& e) const {
    End out;
    if (const int s = names_.switch_at(vertex); s >= 0) {
      out.sw = c_.switches[s].name;
      out.port = std::to_string(e.port);
    } else if (const int h = names_.hca_at(vertex); h >= 0 && !c_.hcas[h].host.empty()) {
      out.host = c_.hcas[h].host;
      out.hca = c_.hcas[h].rail;
    } else {
      out.guid = "0x" + guid_hex(e.guid);
      out.port = std::to_string(e.port);
    }
    return out;
  }

 private:
  const Cluster& c_;
  const CableNames names_;
};

std::string labels(const End& me, const End& peer) {
  std::string out;
  auto add = [&out](const char* name, const std::string& value) {
    if (value.empty()) return;
    out += (out.empty() ? "" : ",") + std::string(name) + "=\"" + escaped_label(value) + "\"";
  };
  // A host cable is labelled alike from both ends (switch, port, host, HCA), told apart by `end`;
  // a cable between switches by this end and the remote one.
  const bool host_cable = !me.host.empty() || !peer.host.empty();
  add("end", !me.sw.empty() ? "switch" : !me.host.empty() ? "hca" : "node");
  if (host_cable) {
    const End& sw = !me.sw.empty() ? me : peer;
    const End& host = !me.host.empty() ? me : peer;
    add("switch", sw.sw);
    add("port", sw.port);
    add("host", host.host);
    add("hca", host.hca);
    add("guid", me.guid.empty() ? peer.guid : me.guid);
  } else {
    add("switch", me.sw);
    add("port", me.port);
    add("guid", me.guid);
    add("remote_switch", peer.sw);
    add("remote_port", peer.port);
    add("remote_guid", peer.guid);
  }
  return out;
}

}  // namespace

std::string counters_textfile(const Cluster& c, int64_t now) {
  std::ostringstream s;
  s << "# slurmtopo " << slurmtopo_version() << ": port counters of the fabric's cable ends, both ends of every cable.\n";
  const EndNames names(c);
  std::vector<std::vector<std::string>> series(kPortCounterCount);
  for (const CableEndHealth& h : c.cable_health) {
    const Link& l = c.fabrics[h.fabric].links[h.link];
    const auto [va, vb] = c.link_vertices[h.fabric][h.link];
    const End me = h.b_end ? names(vb, l.b) : names(va, l.a);
    const End peer = h.b_end ? names(va, l.a) : names(vb, l.b);
    const std::string l_text = labels(me, peer);
    for (size_t i = 0; i < kPortCounterCount; ++i) {
      const auto counter = static_cast<PortCounter>(i);
      if (h.counters.has(counter) && h.counters[counter] > 0)
        series[i].push_back("slurmtopo_infiniband_" + std::string(kMetric[i]) + "{" + l_text + "} " +
                            std::to_string(h.counters[counter]));
    }
  }
  for (size_t i = 0; i < kPortCounterCount; ++i) {
    if (series[i].empty()) continue;
    s << "# HELP slurmtopo_infiniband_" << kMetric[i] << " " << to_string(static_cast<PortCounter>(i))
      << " of a cable end (PMA; stops at its maximum).\n# TYPE slurmtopo_infiniband_" << kMetric[i] << " counter\n";
    for (const auto& line : series[i]) s << line << "\n";
  }
  std::map<std::string, int> over;
  for (const Anomaly& a : c.anomalies)
    if (finding_kind(a.kind).check == std::string("fabric.errors")) over[to_string(a.kind)] += a.count;
  s << "# HELP slurmtopo_cable_ends_over_threshold Cable ends with a counter above its threshold, by finding kind.\n"
       "# TYPE slurmtopo_cable_ends_over_threshold gauge\n";
  for (const char* kind : {"cable-errors", "upstream-errors", "congestion", "config-errors", "switch-errors"})
    s << "slurmtopo_cable_ends_over_threshold{kind=\"" << kind << "\"} " << over[kind] << "\n";
  s << "# HELP slurmtopo_port_counters_read_timestamp_seconds When the counters were read (Unix time).\n"
       "# TYPE slurmtopo_port_counters_read_timestamp_seconds gauge\n"
       "slurmtopo_port_counters_read_timestamp_seconds "
    << now << "\n";
  return s.str();
}

void write_counters_textfile(const std::string& dir, const Cluster& cluster, int64_t now) {
  atomic_write((std::filesystem::path(dir) / "slurmtopo_counters.prom").string(), counters_textfile(cluster, now));
}

}  // namespace slurmtopo
