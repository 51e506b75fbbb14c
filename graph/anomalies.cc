#include "graph/anomalies.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "base/text.h"
#include "graph/cable_names.h"
#include "graph/cluster.h"
#include "graph/link_rates.h"
#include "slurm/ranges.h"

namespace slurmtopo {

const FindingKind& finding_kind(Anomaly::Kind kind) { return kAnomalyKinds[static_cast<size_t>(kind)]; }
const char* to_string(Anomaly::Kind kind) { return finding_kind(kind).name; }

namespace {

// Sorted runs rather than a map: this runs once per switch.
template <typename T>
T most_common(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  T best{};
  size_t n = 0;
  for (size_t i = 0, j; i < values.size(); i = j) {
    for (j = i + 1; j < values.size() && values[j] == values[i]; ++j) {}
    if (j - i >= n) best = values[i], n = j - i;  // ties go to the larger value: the intended state
  }
  return best;
}

std::string join_switches(const Cluster& c, const std::vector<int>& ids) {
  std::string out;
  for (int s : ids) out += (out.empty() ? "" : ", ") + c.switches[s].name;
  return out;
}

std::string rail_on(const Cluster& c, const Host& h, int sw) {
  for (int i : h.hcas)
    if (std::count(c.hcas[i].switches.begin(), c.hcas[i].switches.end(), sw))
      return c.hcas[i].rail.empty() ? "an HCA" : c.hcas[i].rail;
  return "an HCA";
}

// "b08-p1-dgx-08-c01" → "b#-p#-dgx-#-c#": how a unit names its hosts, numbers aside.
std::string name_skeleton(const std::string& name) {
  std::string out;
  for (char ch : name) {
    const bool digit = ch >= '0' && ch <= '9';
    if (digit && !out.empty() && out.back() == '#') continue;
    out += digit ? '#' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return out;
}

// A host reaching at most half its unit's rails and named unlike the unit's other hosts is no
// compute node like its peers: a UFM or service host cabled into the unit (topograph's
// B11-P1-CUFM-02 among b08-p1-dgx-08-c01…c18). Named like them, it is a compute node that
// lost cables.
bool named_like_its_unit(const Cluster& c, const Host& host, const std::vector<int>& unit_hosts) {
  std::map<std::string, int> skeletons;
  for (int h : unit_hosts)
    if (&c.hosts[h] != &host) ++skeletons[name_skeleton(c.hosts[h].name)];
  if (skeletons.empty()) return true;
  const auto usual = std::max_element(skeletons.begin(), skeletons.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
  return name_skeleton(host.name) == usual->first;
}

std::string service_host(size_t has, size_t unit, const std::string& missing) {
  return std::to_string(has) + " of its unit's " + std::to_string(unit) + " rails" +
         (missing.empty() ? "" : " (no cable to " + missing + ")") +
         " and named unlike the unit's hosts: a UFM, storage or service host, left out of topology.conf and "
         "of the nodes whatif places; name it in --nodes or --slurm-conf to place it";
}

std::string lost_rails(size_t has, size_t unit, const std::string& missing) {
  return "reaches " + std::to_string(has) + " of its unit's " + std::to_string(unit) + " rails" +
         (missing.empty() ? "" : ": no cable to " + missing) + " (the other hosts of its unit have them)";
}

// Unresolved HCAs, one anomaly per switch they hang off: its ports and why. A leaf of 60
// unnamed DGX HCAs is one line to act on, not 60 (inspect --json lists every HCA).
// A host "missing" a rail whose leaf holds an unnamed HCA the guesses give to that very host
// (graph/hca_guesses.h) is not missing a cable: its HCA is cabled and kept the factory
// description. Saying "no cable" would send the admin to the wrong fix; the unresolved-hca line
// for that leaf names the host and the port instead. A rail with no such HCA stays missing.
void drop_rails_named_by_guesses(Cluster& c) {
  std::erase_if(c.anomalies, [&](const Anomaly& a) {
    if (a.kind != Anomaly::Kind::MissingRail || a.leaves.empty()) return false;
    for (int leaf : a.leaves) {
      const bool guessed = std::any_of(c.guesses.guesses.begin(), c.guesses.guesses.end(), [&](const HcaGuess& g) {
        const Hca& hca = c.hcas[g.hca];
        return g.host == a.subject && !hca.switches.empty() && hca.switches.front() == leaf;
      });
      if (!guessed) return false;
    }
    return true;
  });
}

void record_unresolved(Cluster& c) {
  drop_rails_named_by_guesses(c);
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
    // Where the ports name their likely hosts (graph/hca_guesses.h), say so: the admin's fix is
    // a map entry per HCA, and `inspect --suggest-map` writes them.
    std::string likely;
    int guessed = 0;
    for (const HcaGuess& g : c.guesses.guesses)
      if (std::binary_search(ids.begin(), ids.end(), g.hca))
        ++guessed, likely += (likely.empty() ? "" : ", ") + std::string("[") + std::to_string(g.port) + "] " + g.host;
    if (guessed)
      why += "; " + std::to_string(guessed) + " with a likely host from its port (inspect --suggest-map): " + likely;
    c.anomalies.push_back({Anomaly::Kind::UnresolvedHca, s >= 0 ? c.switches[s].name : "(no switch)", detail + why,
                           static_cast<int>(ids.size())});
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
// `uniform`: the leaf reaches every upper switch its peers do, each with the same fraction of
// their cables (1 of 3 to each of four spines): a leaf built thinner, not one that lost cables.
struct ShortUplinks {
  std::string text;
  bool uniform = false;
};

ShortUplinks short_uplinks(const Cluster& c, const std::vector<int>& switch_of, const SwitchInfo& leaf) {
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
  std::set<int> short_of;
  for (auto& [u, counts] : peer_counts) {
    // Peers that do not reach u at all count as 0 only when most do reach it.
    if (2 * counts.size() < peers.size()) continue;
    const int usual = most_common(counts);
    const auto it = mine.find(u);
    const int has = it == mine.end() ? 0 : it->second;
    if (has < usual) short_by[{has, usual}].push_back(u), short_of.insert(u);
  }
  ShortUplinks out;
  for (const auto& [key, uppers] : short_by)
    out.text += (out.text.empty() ? ": " : "; ") + std::to_string(key.first) + " of " + std::to_string(key.second) +
                " cables to " + join_switches(c, uppers);
  // One upper switch short is ambiguous (a lost cable looks the same); the same fraction on
  // several is a pattern someone cabled.
  out.uniform = short_by.size() == 1 && short_by.begin()->first.first > 0 && mine.size() >= 2;
  for (const auto& [u, n] : mine) out.uniform = out.uniform && short_of.count(u);
  return out;
}

}  // namespace

void record_grouping_anomalies(Cluster& c, const GroupingResult& grouping) {
  using K = Anomaly::Kind;
  std::vector<bool> reported(c.hosts.size(), false);
  std::vector<std::vector<int>> unit_hosts(grouping.group_leaves.size());
  for (size_t h = 0; h < c.hosts.size(); ++h)
    if (grouping.host_group[h] >= 0) unit_hosts[grouping.host_group[h]].push_back(static_cast<int>(h));
  for (const auto& d : grouping.deviations) {
    Host& h = c.hosts[d.host];
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
    const std::string missing = join_switches(c, d.missing);
    if (d.foreign.empty() && 2 * d.missing.size() >= unit && !named_like_its_unit(c, h, unit_hosts[d.group])) {
      h.role = HostRole::Service;
      c.anomalies.push_back({K::PartialHost, h.name, service_host(unit - d.missing.size(), unit, missing)});
    } else if (2 * d.missing.size() >= unit) {
      c.anomalies.push_back({K::MissingRail, h.name, lost_rails(unit - d.missing.size(), unit, missing), 1, d.missing});
    } else {
      c.anomalies.push_back(
          {K::MissingRail, h.name, "no cable to " + missing + " (the other hosts of its unit have one)", 1, d.missing});
    }
  }
  // Hosts whose HCA count is below their group's usual count, where the leaf set hid it.
  for (const auto& g : c.groups) {
    std::vector<size_t> counts;
    for (int h : g.hosts) counts.push_back(c.hosts[h].hcas.size());
    size_t usual = counts.empty() ? 0 : most_common(counts);
    for (int h : g.hosts) {
      Host& host = c.hosts[h];
      if (reported[h] || host.hcas.size() >= usual) continue;
      if (2 * host.hcas.size() <= usual && !named_like_its_unit(c, host, g.hosts)) {
        host.role = HostRole::Service;
        c.anomalies.push_back({K::PartialHost, host.name, service_host(host.hcas.size(), usual, "")});
      } else {
        c.anomalies.push_back({K::MissingRail, host.name,
                               std::to_string(host.hcas.size()) + " HCAs named for it, its peers have " +
                                   std::to_string(usual)});
      }
    }
  }
  for (size_t s = 0; s < grouping.secondary.size(); ++s)
    if (grouping.secondary[s])
      c.anomalies.push_back({K::SecondaryLeaf, c.switches[s].name,
                             "carries HCAs of hosts from several units (storage rail?): not a Slurm leaf"});
}

void record_fabric_anomalies(Cluster& c, const SiteConfig& site, const std::vector<int>& switch_of,
                             bool judge_cable_rates) {
  using K = Anomaly::Kind;
  const CableNames names(c, switch_of);

  for (const auto& f : c.fabrics) {
    for (const auto& p : f.partial) c.anomalies.push_back({K::PartialSweep, f.name, p});
    // A sweep from a node whose own port is down holds that node alone (topograph's
    // example-bad.out: one GB200 HCA): say what the file holds, not "nothing wrong".
    const bool no_switch = std::none_of(f.nodes.begin(), f.nodes.end(),
                                        [](const FabricNode& n) { return n.kind == NodeKind::Switch; });
    if (no_switch && f.links.empty()) {
      std::string list;
      for (size_t i = 0; i < f.nodes.size() && i < 3; ++i) list += (i ? ", \"" : "\"") + f.nodes[i].description + "\"";
      if (f.nodes.size() > 3) list += ", …";
      c.anomalies.push_back({K::NoFabric, f.name,
                             "the input holds " + counted(f.nodes.size(), "CA", "CAs") + (list.empty() ? "" : " (" + list + ")") +
                                 " and no switch or cable: the port it was swept from is down or not cabled "
                                 "(ibstat shows its state); there is no fabric to place jobs on"});
    }
  }

  std::map<int, int> top_level;  // per component, its highest switch level
  for (const auto& s : c.switches) top_level[s.component] = std::max(top_level[s.component], s.level);

  // Uplinks: a leaf with fewer than its peers (same component) has lost cables.
  std::map<int, std::vector<int>> uplinks_by_component;
  for (const auto& s : c.switches)
    if (s.role == SwitchRole::Leaf && c.max_level > 1) uplinks_by_component[s.component].push_back(s.uplinks);
  std::map<int, int> usual_uplinks;  // per component, once: not once per leaf over all its leaves
  for (const auto& [component, peers] : uplinks_by_component)
    usual_uplinks[component] = peers.size() > 1 ? most_common(peers) : 0;
  for (const auto& s : c.switches) {
    if (s.role != SwitchRole::Leaf || c.max_level < 2) continue;
    int expected = site.expected_uplinks_per_leaf > 0 ? site.expected_uplinks_per_leaf : usual_uplinks[s.component];
    if (expected <= 0 || s.uplinks >= expected) continue;  // more uplinks than peers lose nothing
    const ShortUplinks short_of = short_uplinks(c, switch_of, s);
    // Without the site's count, a leaf short on every spine alike was built so (psmn X5's
    // storage leaf: one cable to each of four spines where the compute leaves have three).
    if (short_of.uniform && site.expected_uplinks_per_leaf <= 0) continue;
    c.anomalies.push_back({K::MissingUplinks, s.name,
                           counted(s.uplinks, "uplink", "uplinks") + ", expected " + std::to_string(expected) +
                               short_of.text});
  }

  // Cables: loopbacks and leaf-to-leaf here; rates against what both ends can do in link_rates.
  std::vector<CableToJudge> to_judge;
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    const Fabric& fabric = c.fabrics[f];
    for (size_t i = 0; i < fabric.links.size(); ++i) {
      const Link& l = fabric.links[i];
      const auto [a, b] = c.link_vertices[f][i];
      if (a < 0 || b < 0) continue;
      const Vertex va = a, vb = b;
      const FabricNode *na = &fabric.nodes[c.graph[va].node], *nb = &fabric.nodes[c.graph[vb].node];
      auto cable = [&] { return names.cable(va, l.a.port, vb, l.b.port); };
      if (l.a.guid == l.b.guid) {
        c.anomalies.push_back({K::Loopback, cable(), "cable from the switch back to itself"});
        continue;
      }
      int sa = switch_of[va], sb = switch_of[vb];
      // Two leaves joined directly are a fabric's design when nothing is above them (two lab
      // switches cabled together); with spines above, the cable bypasses the tree.
      if (sa >= 0 && sb >= 0 && c.switches[sa].role == SwitchRole::Leaf &&
          c.switches[sb].role == SwitchRole::Leaf && top_level[c.switches[sa].component] > 1)
        c.anomalies.push_back({K::LeafToLeaf, cable(), "cable between two leaves, bypassing the switches above them"});
      bool internal = (na->kind == NodeKind::Ca && names.hca_at(va) < 0) || (nb->kind == NodeKind::Ca && names.hca_at(vb) < 0);
      // SHARP aggregation node ports run at their own width.
      if (internal || !judge_cable_rates) continue;
      to_judge.push_back({f, &l, na, nb, sa >= 0 ? c.switches[sa].level : 0, sb >= 0 ? c.switches[sb].level : 0, va, vb});
    }
  }
  if (judge_cable_rates)
    record_link_rates(c, site, to_judge, [&](const CableToJudge& j) {
      return names.cable(j.vertex_a, j.link->a.port, j.vertex_b, j.link->b.port);
    });

  record_unresolved(c);
}

}  // namespace slurmtopo
