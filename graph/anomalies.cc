#include "graph/anomalies.h"

#include <algorithm>
#include <map>

#include "base/text.h"
#include "graph/cluster.h"
#include "slurm/ranges.h"

namespace slurmtopo {

const char* to_string(Anomaly::Kind kind) {
  switch (kind) {
    case Anomaly::Kind::PartialSweep: return "partial-sweep";
    case Anomaly::Kind::MissingUplinks: return "missing-uplinks";
    case Anomaly::Kind::DegradedLink: return "degraded-link";
    case Anomaly::Kind::Loopback: return "loopback";
    case Anomaly::Kind::LeafToLeaf: return "leaf-to-leaf";
    case Anomaly::Kind::UnresolvedHca: return "unresolved-hca";
    case Anomaly::Kind::MissingRail: return "missing-rail";
    case Anomaly::Kind::MiscabledRail: return "miscabled-rail";
    case Anomaly::Kind::SecondaryLeaf: return "secondary-leaf";
    case Anomaly::Kind::CrossedRails: return "crossed-rails";
    case Anomaly::Kind::MissingLeaf: return "missing-leaf";
    case Anomaly::Kind::PartialHost: return "partial-host";
  }
  return "?";
}

namespace {

template <typename T>
T most_common(const std::vector<T>& values) {
  std::map<T, int> counts;
  for (const T& v : values) ++counts[v];
  T best{};
  int n = 0;
  for (const auto& [v, k] : counts)  // ties go to the larger value: the intended state
    if (k >= n) best = v, n = k;
  return best;
}

std::string join_switches(const Cluster& c, const std::vector<int>& ids) {
  std::string out;
  for (int s : ids) out += (out.empty() ? "" : ", ") + c.switches[s].name;
  return out;
}

// "leaf01[3]" for a switch port, "gpu001 mlx5_0" or the GUID for an HCA.
std::string end_name(const Cluster& c, const std::vector<int>& switch_of,
                     const std::vector<int>& hca_of, Vertex v, int port) {
  if (switch_of[v] >= 0) return c.switches[switch_of[v]].name + "[" + std::to_string(port) + "]";
  const FabricNode& n = c.fabrics[c.graph[v].fabric].nodes[c.graph[v].node];
  if (hca_of[v] >= 0 && !c.hcas[hca_of[v]].host.empty()) {
    const Hca& h = c.hcas[hca_of[v]];
    return h.rail.empty() ? h.host : h.host + " " + h.rail;
  }
  return "0x" + guid_hex(n.guid) + "[" + std::to_string(port) + "]";
}

std::string rail_on(const Cluster& c, const Host& h, int sw) {
  for (int i : h.hcas)
    if (std::count(c.hcas[i].switches.begin(), c.hcas[i].switches.end(), sw))
      return c.hcas[i].rail.empty() ? "an HCA" : c.hcas[i].rail;
  return "an HCA";
}

// A host with at most half its unit's rails is no compute node like its peers: a UFM or
// service host cabled into the unit.
std::string partial_host(size_t has, size_t unit, const std::string& missing) {
  return std::to_string(has) + " of its unit's " + std::to_string(unit) + " rails" +
         (missing.empty() ? "" : " (no cable to " + missing + ")") +
         ": not built like its peers (a UFM, storage or service host?); exclude it (exclude_hosts in "
         "site.yaml) or give --slurm-conf so topology.conf holds Slurm's nodes only";
}

// Unresolved HCAs, one anomaly per switch they hang off: its ports and why. A leaf of 60
// unnamed DGX HCAs is one line to act on, not 60 (inspect --json lists every HCA).
void record_unresolved(Cluster& c) {
  std::map<int, std::vector<int>> by_switch;  // switch (-1: none) → HCAs
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i)
    if (!c.hcas[i].unresolved.empty()) by_switch[c.hcas[i].switches.empty() ? -1 : c.hcas[i].switches.front()].push_back(i);
  for (const auto& [s, ids] : by_switch) {
    std::vector<int> ports;
    std::map<std::string, std::vector<int>> reasons;
    for (int i : ids) {
      if (!c.hcas[i].ports.empty()) ports.push_back(c.hcas[i].ports.front());
      reasons[c.hcas[i].unresolved].push_back(i);
    }
    std::sort(ports.begin(), ports.end());
    std::string detail = counted(ids.size(), "unresolved HCA", "unresolved HCAs");
    if (!ports.empty()) detail += (ports.size() == 1 ? " on port " : " on ports ") + format_ranges(ports);
    std::string why;
    for (const auto& [reason, hcas] : reasons) {
      why += (why.empty() ? ": " : "; ") + std::to_string(hcas.size()) + " " + reason;
      // A few are worth naming one by one, unless their descriptions are all the factory's.
      if (hcas.size() > 3 || reason == "factory-default node description" || reason == "empty node description")
        continue;
      std::string named;
      for (int i : hcas)
        named += (named.empty() ? "" : ", ") + ("\"" + c.hcas[i].description + "\"") +
                 (c.hcas[i].ports.empty() ? "" : " [" + std::to_string(c.hcas[i].ports.front()) + "]");
      why += " (" + named + ")";
    }
    c.anomalies.push_back({Anomaly::Kind::UnresolvedHca, s >= 0 ? c.switches[s].name : "(no switch)", detail + why});
  }
}

// Cables from a switch to each switch above it.
std::map<int, int> cables_up(const Cluster& c, const std::vector<int>& switch_of, const SwitchInfo& s) {
  std::map<int, int> out;
  for (auto [e, end] = boost::out_edges(s.vertex, c.graph); e != end; ++e) {
    int peer = switch_of[boost::target(*e, c.graph)];
    if (peer >= 0 && c.switches[peer].level > s.level) ++out[peer];
  }
  return out;
}

// Which upper switches have fewer cables to this leaf than to its peers (leaves of the same
// component that reach at least one of the same upper switches): ": 0 of 2 cables to A, B".
std::string short_uplinks(const Cluster& c, const std::vector<int>& switch_of, const SwitchInfo& leaf) {
  const std::map<int, int> mine = cables_up(c, switch_of, leaf);
  std::map<int, std::vector<int>> peer_counts;  // upper switch → cables from each peer
  std::vector<std::map<int, int>> peers;
  for (const auto& s : c.switches) {
    if (&s == &leaf || s.role != SwitchRole::Leaf || s.component != leaf.component) continue;
    std::map<int, int> up = cables_up(c, switch_of, s);
    bool shared = mine.empty();
    for (const auto& [u, n] : up) shared |= mine.count(u) > 0;
    if (!shared) continue;
    for (const auto& [u, n] : up) peer_counts[u].push_back(n);
    peers.push_back(std::move(up));
  }
  std::map<std::pair<int, int>, std::vector<int>> short_by;  // (has, usual) → upper switches
  for (auto& [u, counts] : peer_counts) {
    // Peers that do not reach u at all count as 0 only when most do reach it.
    if (2 * counts.size() < peers.size()) continue;
    const int usual = most_common(counts);
    const auto it = mine.find(u);
    const int has = it == mine.end() ? 0 : it->second;
    if (has < usual) short_by[{has, usual}].push_back(u);
  }
  std::string out;
  for (const auto& [key, uppers] : short_by)
    out += (out.empty() ? ": " : "; ") + std::to_string(key.first) + " of " + std::to_string(key.second) +
           " cables to " + join_switches(c, uppers);
  return out;
}

}  // namespace

void record_grouping_anomalies(Cluster& c, const GroupingResult& grouping) {
  using K = Anomaly::Kind;
  std::vector<bool> reported(c.hosts.size(), false);
  for (const auto& d : grouping.deviations) {
    const Host& h = c.hosts[d.host];
    reported[d.host] = true;
    // One rail on a foreign leaf and one leaf of its own unit unreached: one crossed cable.
    const bool swapped = d.foreign.size() == 1 && d.missing.size() == 1;
    for (int s : d.foreign)
      c.anomalies.push_back({K::MiscabledRail, h.name,
                             rail_on(c, h, s) + " is cabled to " + c.switches[s].name +
                                 (swapped ? " instead of " + c.switches[d.missing.front()].name
                                          : ", outside its unit (" + join_switches(c, grouping.group_leaves[d.group]) + ")")});
    if (d.missing.empty() || swapped) continue;
    const size_t unit = grouping.group_leaves[d.group].size();
    if (d.foreign.empty() && 2 * d.missing.size() >= unit)
      c.anomalies.push_back({K::PartialHost, h.name, partial_host(unit - d.missing.size(), unit, join_switches(c, d.missing))});
    else
      c.anomalies.push_back({K::MissingRail, h.name,
                             "no cable to " + join_switches(c, d.missing) +
                                 " (the other hosts of its unit have one)"});
  }
  // Hosts whose HCA count is below their group's usual count, where the leaf set hid it.
  for (const auto& g : c.groups) {
    std::vector<size_t> counts;
    for (int h : g.hosts) counts.push_back(c.hosts[h].hcas.size());
    size_t usual = counts.empty() ? 0 : most_common(counts);
    for (int h : g.hosts)
      if (!reported[h] && c.hosts[h].hcas.size() < usual)
        c.anomalies.push_back(2 * c.hosts[h].hcas.size() <= usual
                                  ? Anomaly{K::PartialHost, c.hosts[h].name,
                                            partial_host(c.hosts[h].hcas.size(), usual, "")}
                                  : Anomaly{K::MissingRail, c.hosts[h].name,
                                            std::to_string(c.hosts[h].hcas.size()) +
                                                " HCAs named for it, its peers have " + std::to_string(usual)});
  }
  for (size_t s = 0; s < grouping.secondary.size(); ++s)
    if (grouping.secondary[s])
      c.anomalies.push_back({K::SecondaryLeaf, c.switches[s].name,
                             "carries HCAs of hosts from several units (storage rail?): not a Slurm leaf"});
}

void record_fabric_anomalies(Cluster& c, const SiteConfig& site, const std::vector<int>& switch_of) {
  using K = Anomaly::Kind;
  std::vector<int> hca_of(boost::num_vertices(c.graph), -1);
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i) hca_of[c.hcas[i].vertex] = i;

  for (const auto& f : c.fabrics)
    for (const auto& p : f.partial) c.anomalies.push_back({K::PartialSweep, f.name, p});

  // Uplinks: a leaf with fewer than its peers (same component) has lost cables.
  std::map<int, std::vector<int>> uplinks_by_component;
  for (const auto& s : c.switches)
    if (s.role == SwitchRole::Leaf && c.max_level > 1) uplinks_by_component[s.component].push_back(s.uplinks);
  for (const auto& s : c.switches) {
    if (s.role != SwitchRole::Leaf || c.max_level < 2) continue;
    const auto& peers = uplinks_by_component[s.component];
    int expected = site.expected_uplinks_per_leaf > 0 ? site.expected_uplinks_per_leaf
                                                      : (peers.size() > 1 ? most_common(peers) : 0);
    if (expected > 0 && s.uplinks != expected)
      c.anomalies.push_back({K::MissingUplinks, s.name,
                             counted(s.uplinks, "uplink", "uplinks") + ", expected " + std::to_string(expected) +
                                 short_uplinks(c, switch_of, s)});
  }

  // Per fabric: the usual width and speed, unless the site says what they should be.
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    const Fabric& fabric = c.fabrics[f];
    std::vector<int> widths;
    std::vector<int> speeds;
    for (const auto& l : fabric.links) {
      if (l.width) widths.push_back(l.width);
      if (l.speed != LinkSpeed::Unknown) speeds.push_back(static_cast<int>(l.speed));
    }
    const int usual_width = site.expected_width ? site.expected_width : (widths.empty() ? 0 : most_common(widths));
    const int usual_speed = site.expected_speed != LinkSpeed::Unknown
                                ? static_cast<int>(site.expected_speed)
                                : (speeds.empty() ? 0 : most_common(speeds));
    const Vertex base = [&] {
      for (Vertex v = 0; v < boost::num_vertices(c.graph); ++v)
        if (c.graph[v].fabric == f) return v;
      return Vertex(0);
    }();
    for (const auto& l : fabric.links) {
      const FabricNode* na = fabric.find(l.a.guid);
      const FabricNode* nb = fabric.find(l.b.guid);
      if (!na || !nb) continue;
      Vertex va = base + (na - fabric.nodes.data()), vb = base + (nb - fabric.nodes.data());
      std::string cable = end_name(c, switch_of, hca_of, va, l.a.port) + " - " +
                          end_name(c, switch_of, hca_of, vb, l.b.port);
      if (l.a.guid == l.b.guid) {
        c.anomalies.push_back({K::Loopback, cable, "cable from the switch back to itself"});
        continue;
      }
      int sa = switch_of[va], sb = switch_of[vb];
      if (sa >= 0 && sb >= 0 && c.switches[sa].role == SwitchRole::Leaf &&
          c.switches[sb].role == SwitchRole::Leaf)
        c.anomalies.push_back({K::LeafToLeaf, cable, "cable between two leaves"});
      bool internal = (na->kind == NodeKind::Ca && hca_of[va] < 0) || (nb->kind == NodeKind::Ca && hca_of[vb] < 0);
      if (internal) continue;  // SHARP aggregation node ports run at their own width
      if ((l.width && l.width < usual_width) || (l.speed != LinkSpeed::Unknown && static_cast<int>(l.speed) < usual_speed))
        c.anomalies.push_back({K::DegradedLink, cable,
                               std::to_string(l.width) + "x" + to_string(l.speed) + ", fabric runs " +
                                   std::to_string(usual_width) + "x" + to_string(static_cast<LinkSpeed>(usual_speed))});
    }
  }

  record_unresolved(c);
}

}  // namespace slurmtopo
