#include "graph/cluster.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <iterator>
#include <map>
#include <numeric>
#include <set>

#include "base/input_error.h"
#include "graph/anomalies.h"
#include "graph/cluster_hosts.h"
#include "graph/grouping.h"
#include "graph/link_health.h"
#include "graph/plan_check.h"
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

const char* to_string(HostRole role) {
  switch (role) {
    case HostRole::Compute: return "compute";
    case HostRole::Storage: return "storage";
    case HostRole::Service: return "service";
    case HostRole::Unplaced: return "unplaced";
  }
  return "?";
}

std::vector<std::string> Cluster::compute_hosts() const {
  std::vector<std::string> out;
  for (const Host& h : hosts)
    if (h.group >= 0 && h.compute()) out.push_back(h.name);
  return out;
}

int Cluster::host_index(const std::string& name) const {
  auto it = std::lower_bound(hosts.begin(), hosts.end(), name,
                             [](const Host& h, const std::string& n) { return natural_less(h.name, n); });
  return it != hosts.end() && it->name == name ? static_cast<int>(it - hosts.begin()) : -1;
}

namespace {

void build_graph(Cluster& c) {
  for (int f = 0; f < static_cast<int>(c.fabrics.size()); ++f) {
    const Fabric& fabric = c.fabrics[f];
    const Vertex base = boost::num_vertices(c.graph);
    for (int i = 0; i < static_cast<int>(fabric.nodes.size()); ++i)
      boost::add_vertex(VertexRef{f, i}, c.graph);
    // The GUIDs alone, in the nodes' (sorted) order: a binary search over 8-byte keys rather
    // than over nodes of a few hundred bytes each, twice per cable.
    std::vector<uint64_t> guids(fabric.nodes.size());
    for (size_t i = 0; i < guids.size(); ++i) guids[i] = fabric.nodes[i].guid;
    auto vertex_of = [&](uint64_t guid) -> long {
      auto it = std::lower_bound(guids.begin(), guids.end(), guid);
      return it != guids.end() && *it == guid ? static_cast<long>(base + (it - guids.begin())) : -1;
    };
    auto& ends = c.link_vertices.emplace_back(fabric.links.size());
    for (int l = 0; l < static_cast<int>(fabric.links.size()); ++l) {
      long a = vertex_of(fabric.links[l].a.guid), b = vertex_of(fabric.links[l].b.guid);
      ends[l] = {static_cast<int>(a), static_cast<int>(b)};
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
      const FabricNode& n = c.node(v);
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
  for (size_t h = 0; h < c.hosts.size(); ++h)
    for (int i : c.hosts[h].hcas)
      for (int s : c.hcas[i].switches) {
        const bool is_side = side[c.hcas[i].slot];
        if (is_side) side_rail[s] = true;
        else host_switches[h].push_back(s);
      }
  // A lone HCA on a storage leaf (one that carries the storage HCAs of compute hosts) is a
  // storage server's, not a compute host's rail: its host is a storage host and the leaf stays
  // a storage leaf, not a Slurm leaf of storage servers.
  std::vector<bool> candidate(c.hosts.size(), false), storage_leaf(num_switches, false);
  for (size_t h = 0; h < c.hosts.size(); ++h) {
    candidate[h] = !host_switches[h].empty();
    for (int s : host_switches[h]) candidate[h] = candidate[h] && side_rail[s];
  }
  for (int s = 0; s < num_switches; ++s) storage_leaf[s] = side_rail[s];
  for (size_t h = 0; h < c.hosts.size(); ++h)
    if (!candidate[h])
      for (int s : host_switches[h]) storage_leaf[s] = false;
  for (size_t h = 0; h < c.hosts.size(); ++h) {
    bool lone_on_storage = candidate[h];
    for (int s : host_switches[h]) lone_on_storage = lone_on_storage && storage_leaf[s];
    if (lone_on_storage) host_switches[h].clear();
    for (int s : host_switches[h]) main_rail[s] = true;
    // A host with side rails only is a storage host: it keeps a place of its own (its storage
    // leaves, never with compute hosts), used only when Slurm's node list names it.
    if (host_switches[h].empty() && !c.hosts[h].hcas.empty() && (slots > 1 || lone_on_storage)) {
      bool cabled = false;
      for (int i : c.hosts[h].hcas) cabled |= !c.hcas[i].switches.empty();
      if (cabled) c.hosts[h].role = HostRole::Storage;
    }
    if (host_switches[h].empty())
      for (int i : c.hosts[h].hcas)
        for (int s : c.hcas[i].switches) host_switches[h].push_back(s);
    if (c.hosts[h].role != HostRole::Storage)
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

// A storage host that the guesses give HCAs on compute leaves is a compute host whose compute
// HCAs lack names: placing it on its storage leaf would tell Slurm the wrong leaf.
void mark_unplaced(Cluster& c) {
  for (const HcaGuess& g : c.guesses.guesses) {
    const int h = c.host_index(g.host);
    if (h < 0 || c.hosts[h].role != HostRole::Storage) continue;
    const Hca& hca = c.hcas[g.hca];
    if (!hca.switches.empty() && c.switches[hca.switches.front()].role == SwitchRole::Leaf)
      c.hosts[h].role = HostRole::Unplaced;
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
  c.guesses = guess_hca_hosts(c);
  mark_unplaced(c);
  record_fabric_anomalies(c, options.site, switch_of, options.judge_cable_rates);
  // Counters read with a sweep travel with its fabric (a live sweep, a snapshot of one).
  std::vector<CounterReadings> readings = options.counters;
  for (const Fabric& f : c.fabrics)
    if (!f.counters.form.empty()) readings.push_back(f.counters);
  if (!readings.empty()) record_link_health(c, readings, options.site.counter_thresholds, CableNames(c, switch_of));
  for (const CablePlan& plan : options.plans) record_plan_findings(c, plan);
  return c;
}

}  // namespace slurmtopo
