#include "graph/link_health.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "base/text.h"

namespace slurmtopo {

namespace {

using K = Anomaly::Kind;
using PC = PortCounter;

// What to do, per finding kind: the words for the technician at the rack.
const char* action(K kind) {
  switch (kind) {
    case K::CableErrors:
      return "reseat the cable at both ends; if the errors come back after clearing the counters, replace the cable "
             "(and its transceivers)";
    case K::UpstreamErrors:
      return "the packets were already bad when they arrived: fix the cable-errors findings on the path first";
    case K::Congestion:
      return "look at congestion on this port (traffic pattern, routing, a slow receiver), not at the cable";
    default:
      return "check the partition (P_Key) and routing configuration for this port";
  }
}

// One counter as a finding shows it: "SymbolErrorCounter 500 (+3.2/s)", "LinkDownedCounter at
// least 255 (stuck at its maximum)".
std::string shown(const PortCounters& p, PC c, double interval_s) {
  std::string s = std::string(to_string(c)) + " ";
  if (p.maxed(c)) return s + "at least " + std::to_string(p[c]) + " (stuck at its maximum: clear it to count again)";
  s += std::to_string(p[c]);
  if (p.has_rate(c)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%+.3g/s over %g s)", p.per_second[static_cast<size_t>(c)], interval_s);
    s += buf;
  }
  return s;
}

struct EndRef {
  int fabric = 0, link = 0;
  bool b_end = false;
};

// Where each port of the fabric is: by (GUID, port) for node and port GUIDs, by (fabric, LID,
// port) for LIDs, sorted for binary search.
class PortIndex {
 public:
  explicit PortIndex(const Cluster& c) {
    for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
      const Fabric& fabric = c.fabrics[f];
      for (const FabricNode& n : fabric.nodes) {
        nodes_.insert(n.guid);
        // A switch with no cable in this fabric is still known: its ports are "not cabled".
        if (n.kind == NodeKind::Switch && n.lid) switch_lids_.insert({f, n.lid});
      }
      for (int i = 0; i < static_cast<int>(fabric.links.size()); ++i) {
        const Link& l = fabric.links[i];
        for (bool b : {false, true}) {
          const LinkEnd& e = b ? l.b : l.a;
          const EndRef ref{f, i, b};
          by_guid_.push_back({e.guid, e.port, ref});
          if (e.port_guid && e.port_guid != e.guid) by_guid_.push_back({e.port_guid, e.port, ref});
          const FabricNode* n = fabric.find(e.guid);
          const uint16_t lid = n && n->kind == NodeKind::Switch ? n->lid : e.lid;
          if (lid) by_lid_.push_back({f, lid, e.port, ref});
        }
      }
    }
    std::sort(by_guid_.begin(), by_guid_.end(), [](const ByGuid& x, const ByGuid& y) {
      return std::tie(x.guid, x.port) < std::tie(y.guid, y.port);
    });
    std::sort(by_lid_.begin(), by_lid_.end(), [](const ByLid& x, const ByLid& y) {
      return std::tie(x.lid, x.port, x.fabric) < std::tie(y.lid, y.port, y.fabric);
    });
  }

  enum class Found { Cable, NoCable, Unknown, Ambiguous };

  Found find(const PortCounters& p, EndRef& out) const {
    if (p.guid) {
      auto it = std::lower_bound(by_guid_.begin(), by_guid_.end(), std::make_pair(p.guid, p.port),
                                 [](const ByGuid& x, const std::pair<uint64_t, int>& k) {
                                   return std::tie(x.guid, x.port) < std::tie(k.first, k.second);
                                 });
      if (it != by_guid_.end() && it->guid == p.guid && it->port == p.port) {
        out = it->ref;
        return Found::Cable;
      }
      return nodes_.count(p.guid) ? Found::NoCable : Found::Unknown;
    }
    auto it = std::lower_bound(by_lid_.begin(), by_lid_.end(), std::make_pair(p.lid, p.port),
                               [](const ByLid& x, const std::pair<uint16_t, int>& k) {
                                 return std::tie(x.lid, x.port) < std::tie(k.first, k.second);
                               });
    int hits = 0;
    for (; it != by_lid_.end() && it->lid == p.lid && it->port == p.port; ++it, ++hits) out = it->ref;
    if (hits > 1) return Found::Ambiguous;
    if (hits == 1) return Found::Cable;
    for (const auto& [f, lid] : switch_lids_)
      if (lid == p.lid) return Found::NoCable;
    return Found::Unknown;
  }

  // The fabric switch with this LID (perfquery -a names a switch by LID only); nullptr if none
  // or several fabrics have it.
  const FabricNode* switch_with_lid(const Cluster& c, uint16_t lid) const {
    const FabricNode* found = nullptr;
    for (const auto& [f, l] : switch_lids_) {
      if (l != lid) continue;
      if (found) return nullptr;
      for (const FabricNode& n : c.fabrics[f].nodes)
        if (n.kind == NodeKind::Switch && n.lid == lid) found = &n;
    }
    return found;
  }

 private:
  struct ByGuid {
    uint64_t guid;
    int port;
    EndRef ref;
  };
  struct ByLid {
    int fabric;
    uint16_t lid;
    int port;
    EndRef ref;
  };
  std::vector<ByGuid> by_guid_;
  std::vector<ByLid> by_lid_;
  std::set<uint64_t> nodes_;
  std::set<std::pair<int, uint16_t>> switch_lids_;
};

uint32_t over_thresholds(const PortCounters& p, const CounterThresholds& thresholds) {
  uint32_t over = 0;
  for (size_t i = 0; i < kPortCounterCount; ++i) {
    const auto c = static_cast<PC>(i);
    if (p.has(c) && thresholds[i] >= 0 && p[c] > static_cast<uint64_t>(thresholds[i])) over |= 1u << i;
  }
  return over;
}

// The switch a summed line is about, named as the cluster names it.
std::string switch_name(const Cluster& c, uint64_t guid) {
  for (const SwitchInfo& s : c.switches)
    if (s.guid == guid) return s.name;
  return "0x" + guid_hex(guid);
}

}  // namespace

Anomaly::Kind counter_finding(PortCounter counter) {
  switch (counter) {
    case PC::SymbolErrorCounter:
    case PC::LinkErrorRecoveryCounter:
    case PC::LinkDownedCounter:
    case PC::PortRcvErrors:
    case PC::LocalLinkIntegrityErrors:
    case PC::ExcessiveBufferOverrunErrors: return K::CableErrors;
    case PC::PortRcvRemotePhysicalErrors: return K::UpstreamErrors;
    case PC::PortXmitDiscards:
    case PC::PortXmitWait: return K::Congestion;
    default: return K::ConfigErrors;
  }
}

std::string counter_source_summary(const CounterSource& s) {
  std::string out = "port counters (" + s.form + ", " + s.source + (s.read_at.empty() ? "" : ", read " + s.read_at) +
                    (s.interval_s > 0 ? ", rates over " + std::to_string(static_cast<int>(std::lround(s.interval_s))) + " s" : "") +
                    "): " + counted(s.ports, "port", "ports") + ", " + std::to_string(s.matched) + " on cables, " +
                    std::to_string(s.no_cable) + " not cabled, " + std::to_string(s.unknown) + " unknown to the fabric";
  if (s.ambiguous) out += ", " + std::to_string(s.ambiguous) + " LIDs in several fabrics (left out)";
  if (s.summed) out += ", " + counted(s.summed, "switch summed", "switches summed");
  if (s.failed_queries) out += "; " + counted(s.failed_queries, "PMA query", "PMA queries") + " failed";
  return out;
}

void record_link_health(Cluster& c, const std::vector<CounterReadings>& readings,
                        const CounterThresholds& thresholds, const CableNames& names) {
  const PortIndex index(c);
  std::vector<Anomaly> found;
  // Switches whose ports an input gives one by one: a summed line about them adds nothing.
  auto switch_of = [&](const PortCounters& p) -> const FabricNode* {
    if (!p.guid) return index.switch_with_lid(c, p.lid);
    for (const Fabric& f : c.fabrics)
      if (const FabricNode* n = f.find(p.guid); n && n->kind == NodeKind::Switch) return n;
    return nullptr;
  };
  std::set<uint64_t> per_port;
  for (const CounterReadings& r : readings)
    for (const PortCounters& p : r.ports)
      if (p.port != PortCounters::kAllPorts)
        if (const FabricNode* sw = switch_of(p)) per_port.insert(sw->guid);
  for (const CounterReadings& r : readings) {
    const int source = static_cast<int>(c.counter_sources.size());
    CounterSource s{r.source, r.form, r.read_at, r.interval_s};
    s.ports = static_cast<int>(std::count_if(r.ports.begin(), r.ports.end(), [](const PortCounters& p) {
      return p.port != PortCounters::kAllPorts;
    }));
    s.failed_queries = r.failed_queries;
    std::vector<std::string> unknown_examples;
    for (const PortCounters& p : r.ports) {
      if (p.port == PortCounters::kAllPorts) {
        ++s.summed;
        const FabricNode* sw = switch_of(p);
        // A switch of another fabric is told by its ports, which such a file lists too.
        if (!sw || per_port.count(sw->guid)) continue;
        const uint32_t over = over_thresholds(p, thresholds);
        if (!over) continue;
        std::string counters;
        for (size_t i = 0; i < kPortCounterCount; ++i)
          if (over >> i & 1) counters += (counters.empty() ? "" : ", ") + shown(p, static_cast<PC>(i), r.interval_s);
        found.push_back({K::SwitchErrors, switch_name(c, sw->guid),
                         counters + " summed over its ports (" + r.source + ":" + std::to_string(p.line) +
                             "): read them one by one (perfquery -l -a " + std::to_string(sw->lid) +
                             ", or ibqueryerrors) to find the cable"});
        continue;
      }
      EndRef ref;
      switch (index.find(p, ref)) {
        case PortIndex::Found::NoCable: ++s.no_cable; continue;
        case PortIndex::Found::Ambiguous: ++s.ambiguous; continue;
        case PortIndex::Found::Unknown:  // port 0 too: a known switch's port 0 is NoCable above
          ++s.unknown;
          if (unknown_examples.size() < 3)
            unknown_examples.push_back((p.guid ? "0x" + guid_hex(p.guid) : "LID " + std::to_string(p.lid)) + " port " +
                                       std::to_string(p.port) + " (line " + std::to_string(p.line) + ")");
          continue;
        case PortIndex::Found::Cable: break;
      }
      ++s.matched;
      const uint32_t over = over_thresholds(p, thresholds);
      // Every end that counted something is kept (the textfile's series must not vanish when a
      // count drops below its threshold); only ends over a threshold make findings.
      bool counted = false;
      for (size_t i = 0; i < kPortCounterCount; ++i)
        counted = counted || (p.has(static_cast<PC>(i)) && p.value[i] > 0);
      if (!counted) continue;
      const Link& l = c.fabrics[ref.fabric].links[ref.link];
      const auto [va, vb] = c.link_vertices[ref.fabric][ref.link];
      if (va < 0 || vb < 0) continue;
      const LinkEnd &me = ref.b_end ? l.b : l.a, &other = ref.b_end ? l.a : l.b;
      const Vertex vm = ref.b_end ? vb : va, vo = ref.b_end ? va : vb;
      CableEndHealth h{names.cable(vm, me.port, vo, other.port), ref.fabric, ref.link, ref.b_end, source, p, over};
      if (!over) {
        c.cable_health.push_back(std::move(h));
        continue;
      }
      // One finding per kind at this end: its counters above threshold, what to do.
      std::map<K, std::vector<PC>> by_kind;
      for (size_t i = 0; i < kPortCounterCount; ++i)
        if (over >> i & 1) by_kind[counter_finding(static_cast<PC>(i))].push_back(static_cast<PC>(i));
      for (const auto& [kind, counters] : by_kind) {
        std::string detail = names.end(vm, me.port) + " counts ";
        bool rising = false, rated = true;
        for (size_t k = 0; k < counters.size(); ++k) {
          detail += (k ? ", " : "") + shown(p, counters[k], r.interval_s);
          rated = rated && p.has_rate(counters[k]);
          rising = rising || (p.has_rate(counters[k]) && p.per_second[static_cast<size_t>(counters[k])] > 0);
        }
        detail += " [" + r.source + (p.line ? ":" + std::to_string(p.line) : "") + "] on a " +
                  std::to_string(l.width) + "x" + to_string(l.speed) + " cable: " + action(kind);
        if (rated && !rising)
          detail += ". Not rising over the " + std::to_string(static_cast<int>(std::lround(r.interval_s))) +
                    " s between reads: old errors; clear the counters and read again under load before replacing";
        found.push_back({kind, h.cable, std::move(detail)});
      }
      c.cable_health.push_back(std::move(h));
    }
    if (s.unknown > 0) {
      std::string examples;
      for (const auto& e : unknown_examples) examples += (examples.empty() ? "" : ", ") + e;
      found.push_back({K::UnmatchedCounters, r.source,
                       counted(s.unknown, "port", "ports") + " of " + std::to_string(s.ports) +
                           " name no node of the fabric (another fabric's file, or nodes added since the sweep?), "
                           "e.g. " + examples,
                       s.unknown});
    }
    c.counter_sources.push_back(std::move(s));
  }
  std::sort(c.cable_health.begin(), c.cable_health.end(), [](const CableEndHealth& x, const CableEndHealth& y) {
    return std::tie(x.fabric, x.link, x.b_end, x.source) < std::tie(y.fabric, y.link, y.b_end, y.source);
  });
  // In kind order, then by subject: the same input, the same order. A port two inputs give
  // (ibqueryerrors and perfquery of the same day) is one finding: the first input's.
  std::stable_sort(found.begin(), found.end(), [](const Anomaly& x, const Anomaly& y) {
    return std::tie(x.kind, x.subject) < std::tie(y.kind, y.subject);
  });
  found.erase(std::unique(found.begin(), found.end(),
                          [](const Anomaly& x, const Anomaly& y) { return x.kind == y.kind && x.subject == y.subject; }),
              found.end());
  for (auto& a : found) c.anomalies.push_back(std::move(a));
}

}  // namespace slurmtopo
