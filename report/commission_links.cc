// Link health per leaf: what its host cables carry down and its uplinks carry up (the sum of
// the cables' data rates, as the fabric reports them), and its uplinks against the count its
// peers in the same component have — the count graph/anomalies.cc compares against. And the
// cable ends the port counters name (graph/link_health.h), as rows to show.
#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "graph/link_health.h"
#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

int most_common(const std::vector<int>& values) {
  std::map<int, int> n;
  for (int v : values) ++n[v];
  int best = 0, count = 0;
  for (auto [v, k] : n)
    if (k > count) best = v, count = k;
  return best;
}

// How each end of a cable is named, as graph/anomalies.cc names it in findings.
struct EndNames {
  std::unordered_map<uint64_t, std::string> switches, hcas;  // per fabric, by node GUID
};

EndNames end_names(const Cluster& c, int fabric) {
  EndNames e;
  for (const auto& s : c.switches)
    if (s.fabric == fabric) e.switches[s.guid] = s.name;
  for (const auto& h : c.hcas)
    if (h.fabric == fabric && !h.host.empty()) e.hcas[h.guid] = h.rail.empty() ? h.host : h.host + " " + h.rail;
  return e;
}

std::string end_name(const EndNames& e, const LinkEnd& end) {
  if (auto it = e.switches.find(end.guid); it != e.switches.end()) return it->second + "[" + std::to_string(end.port) + "]";
  if (auto it = e.hcas.find(end.guid); it != e.hcas.end()) return it->second;
  return "0x" + guid_hex(end.guid) + "[" + std::to_string(end.port) + "]";
}

}  // namespace

std::vector<LeafHealth> plan_leaf_health(const Cluster& c) {
  std::vector<LeafHealth> out;
  std::map<int, std::vector<int>> peers;
  for (const auto& s : c.switches)
    if (s.role == SwitchRole::Leaf) peers[s.component].push_back(s.uplinks);
  std::map<std::pair<int, uint64_t>, int> index;  // (fabric, guid) → switch
  for (int i = 0; i < static_cast<int>(c.switches.size()); ++i) index[{c.switches[i].fabric, c.switches[i].guid}] = i;
  std::unordered_map<int, size_t> row;
  for (int i = 0; i < static_cast<int>(c.switches.size()); ++i) {
    const SwitchInfo& s = c.switches[i];
    if (s.role != SwitchRole::Leaf) continue;
    LeafHealth h;
    h.leaf = s.name;
    h.group = s.group >= 0 ? c.groups[s.group].name : "";
    h.host_ports = s.host_ports;
    h.uplinks = s.uplinks;
    h.peer_uplinks = c.max_level > 1 ? most_common(peers[s.component]) : 0;
    row[i] = out.size();
    out.push_back(h);
  }
  std::unordered_map<uint64_t, char> hca_guids;
  for (const auto& h : c.hcas) hca_guids[h.guid] = 1;
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f)
    for (const Link& l : c.fabrics[f].links) {
      auto a = index.find({f, l.a.guid}), b = index.find({f, l.b.guid});
      const int sa = a == index.end() ? -1 : a->second, sb = b == index.end() ? -1 : b->second;
      auto add = [&](int leaf, int other, uint64_t other_guid) {
        auto r = row.find(leaf);
        if (r == row.end()) return;
        if (other < 0) {
          if (hca_guids.count(other_guid)) out[r->second].down_gbps += l.gbps();
        } else if (c.switches[other].level > c.switches[leaf].level) {
          out[r->second].up_gbps += l.gbps();
        }
      };
      if (sa >= 0) add(sa, sb, l.b.guid);
      if (sb >= 0) add(sb, sa, l.a.guid);
    }
  return out;
}

std::vector<std::string> cable_names(const Cluster& c) {
  std::vector<std::string> out;
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    const EndNames e = end_names(c, f);
    const std::string prefix = c.fabrics.size() > 1 ? c.fabrics[f].name + ": " : "";
    for (const Link& l : c.fabrics[f].links) {
      std::string a = end_name(e, l.a), b = end_name(e, l.b);
      if (b < a) std::swap(a, b);
      out.push_back(prefix + a + " - " + b);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<CableHealthRow> cable_health_rows(const CommissionReport& r) {
  std::vector<CableHealthRow> out;
  for (const CableEndHealth& h : r.cable_health) {
    if (!h.over) continue;  // counted, but below every threshold
    CableHealthRow row;
    row.cable = (r.inventory.fabrics.size() > 1 ? r.inventory.fabrics[h.fabric].name + ": " : "") + h.cable;
    for (size_t i = 0; i < kPortCounterCount; ++i) {
      if (!(h.over >> i & 1)) continue;
      const auto c = static_cast<PortCounter>(i);
      row.severity = std::max(row.severity, finding_kind(counter_finding(c)).severity);
      std::string shown = std::string(to_string(c)) + (h.counters.maxed(c) ? " at least " : " ") +
                          std::to_string(h.counters[c]);
      if (h.counters.has_rate(c)) {
        char rate[48];
        std::snprintf(rate, sizeof rate, " (%+.3g/s)", h.counters.per_second[i]);
        shown += rate;
      }
      row.counters += (row.counters.empty() ? "" : ", ") + shown;
    }
    row.where = r.counter_sources[h.source].source + (h.counters.line ? ":" + std::to_string(h.counters.line) : "");
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace slurmtopo
