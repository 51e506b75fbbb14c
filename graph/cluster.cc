#include "graph/cluster.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <iterator>
#include <map>
#include <numeric>
#include <regex>
#include <set>

#include "base/input_error.h"
#include "graph/anomalies.h"
#include "graph/grouping.h"
#include "graph/host_names.h"
#include "graph/rail_agreement.h"
#include "graph/rail_positions.h"
#include "graph/switch_names.h"
#include "graph/unit_names.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

const char* to_string(SwitchRole role) {
  switch (role) {
    case SwitchRole::Leaf: return "leaf";
    case SwitchRole::Secondary: return "secondary";
    case SwitchRole::Upper: return "upper";
    case SwitchRole::Detached: return "detached";
  }
  return "?";
}

int Cluster::host_index(const std::string& name) const {
  auto it = std::lower_bound(hosts.begin(), hosts.end(), name,
                             [](const Host& h, const std::string& n) { return natural_less(h.name, n); });
  return it != hosts.end() && it->name == name ? static_cast<int>(it - hosts.begin()) : -1;
}

namespace {

const FabricNode& node_of(const Cluster& c, Vertex v) {
  const VertexRef& r = c.graph[v];
  return c.fabrics[r.fabric].nodes[r.node];
}

void build_graph(Cluster& c) {
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    const Fabric& fabric = c.fabrics[f];
    const Vertex base = boost::num_vertices(c.graph);
    for (int i = 0; i < static_cast<int>(fabric.nodes.size()); ++i)
      boost::add_vertex(VertexRef{f, i}, c.graph);
    auto vertex_of = [&](uint64_t guid) -> long {
      const FabricNode* n = fabric.find(guid);
      return n ? static_cast<long>(base + (n - fabric.nodes.data())) : -1;
    };
    for (int l = 0; l < static_cast<int>(fabric.links.size()); ++l) {
      long a = vertex_of(fabric.links[l].a.guid), b = vertex_of(fabric.links[l].b.guid);
      if (a >= 0 && b >= 0) boost::add_edge(a, b, EdgeRef{f, l}, c.graph);
    }
  }
}

// Components numbered in vertex order, so the numbering is the same for the same input.
std::vector<int> find_components(Cluster& c) {
  std::vector<int> raw(boost::num_vertices(c.graph));
  boost::connected_components(c.graph, raw.data());
  std::map<int, int> renumber;
  std::vector<int> comp(raw.size());
  for (size_t v = 0; v < raw.size(); ++v) {
    auto [it, fresh] = renumber.emplace(raw[v], static_cast<int>(renumber.size()));
    if (fresh) c.component_fabric.push_back(c.graph[v].fabric);
    comp[v] = it->second;
  }
  return comp;
}

void collect_switches(Cluster& c, const std::vector<int>& comp, std::vector<int>& switch_of) {
  switch_of.assign(boost::num_vertices(c.graph), -1);
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    std::vector<Vertex> vs;
    std::vector<SwitchNameInput> inputs;
    for (Vertex v = 0; v < boost::num_vertices(c.graph); ++v) {
      const FabricNode& n = node_of(c, v);
      if (c.graph[v].fabric != f || n.kind != NodeKind::Switch) continue;
      vs.push_back(v);
      inputs.push_back({n.guid, n.description});
    }
    std::vector<std::string> names = name_switches(inputs);
    for (size_t i = 0; i < vs.size(); ++i) {
      SwitchInfo s;
      s.vertex = vs[i];
      s.fabric = f;
      s.guid = inputs[i].guid;
      s.name = names[i];
      s.component = comp[vs[i]];
      c.switches.push_back(s);
    }
  }
  // Slurm needs names unique across every fabric it is told about.
  std::map<std::string, int> uses;
  for (const auto& s : c.switches) ++uses[s.name];
  for (auto& s : c.switches)
    if (uses[s.name] > 1 && c.fabrics.size() > 1) s.name = c.fabrics[s.fabric].name + "-" + s.name;
  std::stable_sort(c.switches.begin(), c.switches.end(), [](const SwitchInfo& a, const SwitchInfo& b) {
    return a.fabric != b.fabric ? a.fabric < b.fabric : natural_less(a.name, b.name);
  });
  for (int i = 0; i < static_cast<int>(c.switches.size()); ++i) switch_of[c.switches[i].vertex] = i;
}

std::regex compile_host_regex(const SiteConfig& site) {
  try {
    std::regex re(site.host_regex);
    if (re.mark_count() < 1)
      throw InputError(site.source.empty() ? "host_regex" : site.source, 0,
                       "host_regex needs one capture group: the host name");
    return re;
  } catch (const std::regex_error& e) {
    throw InputError(site.source.empty() ? "host_regex" : site.source, 0,
                     "host_regex is not a valid regular expression: " + std::string(e.what()));
  }
}

bool excluded_host(const std::string& host, const std::set<std::string>& names,
                   const std::vector<std::regex>& patterns) {
  if (names.count(host)) return true;
  for (const auto& re : patterns)
    if (std::regex_search(host, re)) return true;
  return false;
}

void identify_hcas(Cluster& c, const ClusterOptions& options, const std::vector<int>& switch_of) {
  const std::regex host_regex = compile_host_regex(options.site);
  std::set<std::string> excluded_names;
  for (const auto& expr : options.site.exclude_hosts)
    for (auto& h : expand_hostlist(expr)) excluded_names.insert(std::move(h));
  std::vector<std::regex> excluded_patterns;
  for (const auto& p : options.site.exclude_regex) excluded_patterns.emplace_back(p);
  std::set<std::string> placeholders = distribution_default_host_names();
  placeholders.insert(options.site.default_host_names.begin(), options.site.default_host_names.end());
  std::set<uint64_t> mapped_guids;

  for (Vertex v = 0; v < boost::num_vertices(c.graph); ++v) {
    const FabricNode& n = node_of(c, v);
    if (n.kind != NodeKind::Ca) continue;
    if (is_aggregation_node(n.description)) {
      ++c.aggregation_nodes;
      continue;
    }
    Hca hca;
    hca.vertex = v;
    hca.fabric = c.graph[v].fabric;
    hca.guid = n.guid;
    hca.description = n.description;
    std::string mapped = options.names.lookup(n.guid).value_or("");
    if (!mapped.empty()) mapped_guids.insert(n.guid);
    for (auto [e, end] = boost::out_edges(v, c.graph); e != end; ++e) {
      const Link& link = c.fabrics[hca.fabric].links[c.graph[*e].link];
      const bool a_is_mine = link.a.guid == n.guid;
      const LinkEnd& mine = a_is_mine ? link.a : link.b;
      const LinkEnd& peer = a_is_mine ? link.b : link.a;
      if (mine.port_guid && options.names.lookup(mine.port_guid)) {
        mapped_guids.insert(mine.port_guid);
        if (mapped.empty()) mapped = *options.names.lookup(mine.port_guid);
      }
      int s = switch_of[boost::target(*e, c.graph)];
      if (s >= 0) {
        hca.switches.push_back(s);
        hca.ports.push_back(peer.port);
      }
    }
    HcaIdentity id = identify_hca(n.description, host_regex, mapped, placeholders);
    hca.host = id.host;
    hca.rail = id.rail;
    hca.unresolved = id.unresolved;
    hca.excluded = !hca.host.empty() && excluded_host(hca.host, excluded_names, excluded_patterns);
    c.hcas.push_back(std::move(hca));
  }

  c.name_map.source = options.names.source;
  c.name_map.entries = static_cast<int>(options.names.by_guid.size());
  // Switch GUIDs in a map (ibnetdiscover's maps name switches too) are matches as well.
  auto in_fabric = [&](uint64_t guid) {
    for (const auto& f : c.fabrics)
      if (f.find(guid)) return true;
    return false;
  };
  for (const auto& [guid, name] : options.names.by_guid)
    if (!mapped_guids.count(guid) && in_fabric(guid)) mapped_guids.insert(guid);
  c.name_map.matched = static_cast<int>(mapped_guids.size());

  // Two HCAs claiming the same host and rail: one of them is lying, and we cannot tell which.
  std::map<std::pair<std::string, std::string>, std::vector<int>> claims;
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i)
    if (!c.hcas[i].host.empty() && !c.hcas[i].rail.empty())
      claims[{c.hcas[i].host + "\n" + std::to_string(c.hcas[i].fabric), c.hcas[i].rail}].push_back(i);
  for (const auto& [key, ids] : claims) {
    if (ids.size() < 2) continue;
    for (int i : ids) {
      c.hcas[i].unresolved = std::to_string(ids.size()) + " HCAs claim '" + c.hcas[i].host + " " +
                             c.hcas[i].rail + "'";
      c.hcas[i].host.clear();
    }
  }
}

// Rail planes swept as separate subnets (one SM per rail) hold the same hosts, each with as
// many HCAs on every plane: such fabrics are joined, each host taking its HCAs from all of them.
// A host with more HCAs on one fabric belongs to that one (the compute fabric, not storage).
void assemble_hosts(Cluster& c) {
  std::map<std::string, std::map<int, std::vector<int>>> by_host;  // host → fabric → HCAs
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i)
    if (!c.hcas[i].host.empty() && !c.hcas[i].excluded)
      by_host[c.hcas[i].host][c.hcas[i].fabric].push_back(i);
  const int nf = static_cast<int>(c.fabrics.size());
  std::vector<int> plane_of(nf);  // union of fabrics that share tied hosts
  std::iota(plane_of.begin(), plane_of.end(), 0);
  auto find = [&](int x) {
    while (plane_of[x] != x) x = plane_of[x] = plane_of[plane_of[x]];
    return x;
  };
  for (auto& [name, fabrics] : by_host) {
    size_t most = 0;
    for (const auto& [f, hcas] : fabrics) most = std::max(most, hcas.size());
    Host h;
    h.name = name;
    h.fabric = -1;
    for (const auto& [f, hcas] : fabrics) {
      if (hcas.size() != most) continue;
      if (h.fabric < 0) h.fabric = f;
      else plane_of[find(f)] = find(h.fabric);
      h.hcas.insert(h.hcas.end(), hcas.begin(), hcas.end());
    }
    std::sort(h.hcas.begin(), h.hcas.end(), [&](int a, int b) {
      const Hca &x = c.hcas[a], &y = c.hcas[b];
      if (x.fabric != y.fabric) return x.fabric < y.fabric;
      return natural_less(x.rail, y.rail) || (x.rail == y.rail && x.guid < y.guid);
    });
    c.hosts.push_back(std::move(h));
  }
  std::sort(c.hosts.begin(), c.hosts.end(),
            [](const Host& a, const Host& b) { return natural_less(a.name, b.name); });
  std::map<int, std::vector<int>> planes;
  for (int f = 0; f < nf; ++f) planes[find(f)].push_back(f);
  for (const auto& [root, fabrics] : planes)
    if (fabrics.size() > 1) c.planes.push_back(fabrics);

  // Slots from the HCAs' names within each fabric; HCAs without a name take their place within
  // the host. A plane's slots follow those of the planes before it.
  std::vector<std::vector<std::string>> names(nf);
  std::vector<std::vector<int>> ids(nf);
  for (const auto& h : c.hosts)
    for (int i : h.hcas) names[c.hcas[i].fabric].push_back(c.hcas[i].rail), ids[c.hcas[i].fabric].push_back(i);
  std::vector<int> width(nf, 0);
  for (int f = 0; f < nf; ++f) {
    const std::vector<int> slots = name_slots(names[f]);
    for (size_t k = 0; k < ids[f].size(); ++k) c.hcas[ids[f][k]].slot = slots[k];
  }
  for (const auto& h : c.hosts)
    for (size_t k = 0; k < h.hcas.size(); ++k) {
      Hca& hca = c.hcas[h.hcas[k]];
      if (hca.slot < 0) {  // unnamed: its place among the host's HCAs on that fabric
        hca.slot = 0;
        for (size_t j = 0; j < k; ++j) hca.slot += c.hcas[h.hcas[j]].fabric == hca.fabric;
      }
      width[hca.fabric] = std::max(width[hca.fabric], hca.slot + 1);
    }
  std::vector<int> offset(nf, 0);
  for (const auto& fabrics : c.planes)
    for (size_t k = 1; k < fabrics.size(); ++k) offset[fabrics[k]] = offset[fabrics[k - 1]] + width[fabrics[k - 1]];
  for (const auto& h : c.hosts)
    for (int i : h.hcas) c.hcas[i].slot += offset[c.hcas[i].fabric];
}

// The same subnet given twice (or two dumps of one subnet): switches cannot be in two subnets.
// (A dual-port HCA can: its node GUID shows in both.)
void refuse_same_subnet(const std::vector<Fabric>& fabrics) {
  std::vector<std::vector<uint64_t>> switches(fabrics.size());
  for (size_t f = 0; f < fabrics.size(); ++f)
    for (const auto& n : fabrics[f].nodes)
      if (n.kind == NodeKind::Switch) switches[f].push_back(n.guid);  // nodes are sorted by GUID
  for (size_t b = 1; b < fabrics.size(); ++b)
    for (size_t a = 0; a < b; ++a) {
      std::vector<uint64_t> both;
      std::set_intersection(switches[a].begin(), switches[a].end(), switches[b].begin(), switches[b].end(),
                            std::back_inserter(both));
      if (both.empty()) continue;
      throw InputError(fabrics[b].source, 0,
                       "expected a subnet other than " + fabrics[a].source + "'s, but " + std::to_string(both.size()) +
                           " of its " + std::to_string(switches[b].size()) + " switch GUIDs (0x" + guid_hex(both.front()) +
                           ", …) are in both: the same dump given twice?");
    }
}

// Levels by breadth-first search up from every host-facing switch over switch-to-switch cables.
void assign_levels(Cluster& c, const std::vector<int>& switch_of) {
  struct SwitchesOnly {
    const std::vector<int>* switch_of = nullptr;
    bool operator()(Vertex v) const { return (*switch_of)[v] >= 0; }
  };
  boost::filtered_graph<FabricGraph, boost::keep_all, SwitchesOnly> g(c.graph, {}, {&switch_of});
  std::vector<Vertex> sources;
  for (const auto& s : c.switches)
    if (s.host_ports > 0) sources.push_back(s.vertex);
  std::vector<int> dist(boost::num_vertices(c.graph), -1);
  for (Vertex v : sources) dist[v] = 0;
  std::vector<boost::default_color_type> color(boost::num_vertices(c.graph), boost::white_color);
  boost::queue<Vertex> queue;
  auto record = boost::record_distances(dist.data(), boost::on_tree_edge());
  boost::breadth_first_search(g, sources.begin(), sources.end(), queue,
                              boost::make_bfs_visitor(record), color.data());
  for (auto& s : c.switches) {
    s.level = dist[s.vertex] >= 0 ? dist[s.vertex] + 1 : 0;
    c.max_level = std::max(c.max_level, s.level);
  }
}

void group_and_classify(Cluster& c, std::vector<bool>& side) {
  const int num_switches = static_cast<int>(c.switches.size());
  // Side rails (storage) do not define units; their switches are not leaves.
  int slots = 0;
  for (const auto& h : c.hosts)
    for (int i : h.hcas) slots = std::max(slots, c.hcas[i].slot + 1);
  std::vector<std::vector<int>> rail_switch(slots, std::vector<int>(c.hosts.size(), -1));
  for (size_t h = 0; h < c.hosts.size(); ++h)
    for (int i : c.hosts[h].hcas)
      if (!c.hcas[i].switches.empty()) rail_switch[c.hcas[i].slot][h] = c.hcas[i].switches.front();
  side = side_rails(rail_switch);
  std::vector<bool> main_rail(num_switches, false), side_rail(num_switches, false), placed(num_switches, false);
  std::vector<std::vector<int>> host_switches(c.hosts.size());
  for (size_t h = 0; h < c.hosts.size(); ++h) {
    for (int i : c.hosts[h].hcas)
      for (int s : c.hcas[i].switches) {
        bool is_side = side[c.hcas[i].slot];
        (is_side ? side_rail : main_rail)[s] = true;
        if (!is_side) host_switches[h].push_back(s);
      }
    // A host with side rails only is a storage host: it keeps a place of its own (its storage
    // leaves, never with compute hosts), used only when Slurm's node list names it.
    if (host_switches[h].empty() && !c.hosts[h].hcas.empty() && slots > 1) {
      bool cabled = false;
      for (int i : c.hosts[h].hcas) cabled |= !c.hcas[i].switches.empty();
      c.hosts[h].storage = cabled;
    }
    if (host_switches[h].empty())
      for (int i : c.hosts[h].hcas)
        for (int s : c.hcas[i].switches) host_switches[h].push_back(s);
    if (!c.hosts[h].storage)
      for (int s : host_switches[h]) placed[s] = true;
  }
  GroupingResult grouping = group_hosts(host_switches, num_switches);
  for (int s = 0; s < num_switches; ++s)
    if (side_rail[s] && !main_rail[s] && !placed[s]) grouping.secondary[s] = true;

  for (size_t g = 0; g < grouping.group_leaves.size(); ++g) {
    Group group;
    group.leaves = grouping.group_leaves[g];
    group.fabric = c.switches[group.leaves.front()].fabric;
    group.component = c.switches[group.leaves.front()].component;
    c.groups.push_back(std::move(group));
  }
  for (size_t h = 0; h < c.hosts.size(); ++h) {
    c.hosts[h].group = grouping.host_group[h];
    if (c.hosts[h].group >= 0) c.groups[c.hosts[h].group].hosts.push_back(static_cast<int>(h));
  }
  for (auto& s : c.switches) {
    if (s.host_ports > 0) s.role = SwitchRole::Leaf;
    else if (s.level > 0) s.role = SwitchRole::Upper;
  }
  for (int s = 0; s < num_switches; ++s)
    if (grouping.secondary[s]) c.switches[s].role = SwitchRole::Secondary;

  // A leaf's group: the one holding most of its hosts.
  std::vector<std::map<int, int>> votes(num_switches);
  for (size_t h = 0; h < c.hosts.size(); ++h)
    for (int s : host_switches[h])
      if (c.hosts[h].group >= 0) ++votes[s][c.hosts[h].group];
  for (int s = 0; s < num_switches; ++s) {
    int best = -1, count = 0;
    for (auto [g, n] : votes[s])
      if (n > count) best = g, count = n;
    c.switches[s].group = best;
  }
  record_grouping_anomalies(c, grouping);
}

void count_ports(Cluster& c) {
  for (const auto& hca : c.hcas)
    if (!hca.excluded)
      for (int s : hca.switches) ++c.switches[s].host_ports;
}

void count_uplinks(Cluster& c, const std::vector<int>& switch_of) {
  for (auto& s : c.switches)
    for (auto [e, end] = boost::out_edges(s.vertex, c.graph); e != end; ++e) {
      int peer = switch_of[boost::target(*e, c.graph)];
      if (peer >= 0 && c.switches[peer].level > s.level) ++s.uplinks;
    }
}

}  // namespace

Cluster build_cluster(std::vector<Fabric> fabrics, const ClusterOptions& options) {
  refuse_same_subnet(fabrics);
  Cluster c;
  c.fabrics = std::move(fabrics);
  build_graph(c);
  std::vector<int> comp = find_components(c);
  std::vector<int> switch_of;
  collect_switches(c, comp, switch_of);
  identify_hcas(c, options, switch_of);
  assemble_hosts(c);
  count_ports(c);
  assign_levels(c, switch_of);
  std::vector<bool> side;
  group_and_classify(c, side);
  assign_rails(c, side);
  count_uplinks(c, switch_of);
  c.group_name_regex = options.site.group_name_regex;
  name_groups(c, c.group_name_regex);
  record_rail_anomalies(c);
  record_fabric_anomalies(c, options.site, switch_of);
  return c;
}

}  // namespace slurmtopo
