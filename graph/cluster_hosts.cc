#include "graph/cluster_hosts.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <tuple>
#include <unordered_set>

#include "base/input_error.h"
#include "base/regex.h"
#include "discover/port_owner.h"
#include "graph/host_names.h"
#include "graph/rail_positions.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// nullopt for the default rule (the first word), which identify_hca reads without a regex.
std::optional<std::regex> compile_host_regex(const SiteConfig& site) {
  if (site.host_regex == SiteConfig{}.host_regex) return std::nullopt;
  try {
    std::regex re = compile_regex(site.host_regex);
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

// Every node GUID and CA port GUID of the fabrics, built on first use: only a map lookup for a
// CA known by its port GUID needs it.
class PresentGuids {
 public:
  bool contains(const Cluster& c, uint64_t guid) {
    if (!built_) {
      for (const auto& f : c.fabrics) {
        for (const auto& n : f.nodes) guids_.insert(n.guid);
        for (const auto& l : f.links)
          for (const LinkEnd* e : {&l.a, &l.b})
            if (e->port_guid) guids_.insert(e->port_guid);
      }
      built_ = true;
    }
    return guids_.count(guid) > 0;
  }

 private:
  bool built_ = false;
  std::unordered_set<uint64_t> guids_;
};

// A CA the input knew by port GUIDs only (iblinkinfo, ibnetdiscover -p): its name from a map
// keyed by node GUIDs, by the rule of discover/port_owner.h, port by port in port order.
std::optional<PortOwnerName> name_by_port_owner(const Cluster& c, Vertex v, const FabricNode& n,
                                                const NameMap& names, PresentGuids& present) {
  std::vector<std::pair<int, uint64_t>> own;  // (port, port GUID) of this CA's cables
  for (auto [e, end] = boost::out_edges(v, c.graph); e != end; ++e) {
    const Link& link = c.fabrics[c.graph[v].fabric].links[c.graph[*e].link];
    const LinkEnd& mine = link.a.guid == n.guid ? link.a : link.b;
    own.emplace_back(mine.port, mine.port_guid ? mine.port_guid : n.guid);
  }
  std::sort(own.begin(), own.end());
  auto taken = [&](uint64_t guid) {
    if (guid == n.guid) return false;
    for (const auto& [port, port_guid] : own)
      if (port_guid == guid) return false;
    return present.contains(c, guid);
  };
  for (const auto& [port, port_guid] : own)
    if (auto owner = lookup_port_owner(names, port_guid, port, taken)) return owner;
  return std::nullopt;
}

}  // namespace

void identify_hcas(Cluster& c, const ClusterOptions& options, const std::vector<int>& switch_of) {
  const std::optional<std::regex> host_regex = compile_host_regex(options.site);
  std::set<std::string> excluded_names;
  for (const auto& expr : options.site.exclude_hosts)
    for (auto& h : expand_hostlist(expr)) excluded_names.insert(std::move(h));
  std::vector<std::regex> excluded_patterns;
  for (const auto& p : options.site.exclude_regex) excluded_patterns.push_back(compile_regex(p));
  std::set<std::string> placeholders = distribution_default_host_names();
  placeholders.insert(options.site.default_host_names.begin(), options.site.default_host_names.end());
  std::set<uint64_t> mapped_guids;
  PresentGuids present;

  for (Vertex v = 0; v < boost::num_vertices(c.graph); ++v) {
    const FabricNode& n = c.node(v);
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
    if (mapped.empty() && n.guid_from_port && !options.names.by_guid.empty()) {
      if (auto owner = name_by_port_owner(c, v, n, options.names, present)) {
        mapped_guids.insert(owner->guid);
        mapped = owner->name;
      }
    }
    HcaIdentity id = identify_hca(n.description, host_regex ? &*host_regex : nullptr, mapped, placeholders);
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
  // Indices sorted by (host, fabric, rail): claims on one host and rail are neighbours.
  std::vector<int> claims;
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i)
    if (!c.hcas[i].host.empty() && !c.hcas[i].rail.empty()) claims.push_back(i);
  auto claim = [&](int i) { return std::tie(c.hcas[i].host, c.hcas[i].fabric, c.hcas[i].rail); };
  auto claim_less = [&](int a, int b) {
    const Hca &x = c.hcas[a], &y = c.hcas[b];
    if (int r = x.host.compare(y.host)) return r < 0;
    if (x.fabric != y.fabric) return x.fabric < y.fabric;
    if (int r = x.rail.compare(y.rail)) return r < 0;
    return a < b;
  };
  // Fabrics that number GUIDs in host order come sorted: one pass checks it.
  if (!std::is_sorted(claims.begin(), claims.end(), claim_less)) std::sort(claims.begin(), claims.end(), claim_less);
  for (size_t k = 0; k < claims.size();) {
    size_t end = k + 1;
    while (end < claims.size() && claim(claims[end]) == claim(claims[k])) ++end;
    if (end - k > 1) {
      // One text for the run (same host and rail), made before any host is cleared.
      const Hca& first = c.hcas[claims[k]];
      const std::string why = std::to_string(end - k) + " HCAs claim '" + first.host + " " + first.rail + "'";
      for (size_t j = k; j < end; ++j) {
        c.hcas[claims[j]].unresolved = why;
        c.hcas[claims[j]].host.clear();
      }
    }
    k = end;
  }
}

// Rail planes swept as separate subnets (one SM per rail) hold the same hosts, each with as
// many HCAs on every plane: such fabrics are joined, each host taking its HCAs from all of them.
// A host with more HCAs on one fabric belongs to that one (the compute fabric, not storage).
void assemble_hosts(Cluster& c) {
  // HCA indices by (host, fabric, index): a host's HCAs on each fabric are neighbours. (A map of
  // maps of vectors cost a twentieth of an 8,192-HCA emit.)
  std::vector<int> by_host;
  for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i)
    if (!c.hcas[i].host.empty() && !c.hcas[i].excluded) by_host.push_back(i);
  auto host_less = [&](int a, int b) {
    const Hca &x = c.hcas[a], &y = c.hcas[b];
    if (int r = x.host.compare(y.host)) return r < 0;
    if (x.fabric != y.fabric) return x.fabric < y.fabric;
    return a < b;
  };
  if (!std::is_sorted(by_host.begin(), by_host.end(), host_less)) std::sort(by_host.begin(), by_host.end(), host_less);
  const int nf = static_cast<int>(c.fabrics.size());
  std::vector<int> plane_of(nf);  // union of fabrics that share tied hosts
  std::iota(plane_of.begin(), plane_of.end(), 0);
  auto find = [&](int x) {
    while (plane_of[x] != x) x = plane_of[x] = plane_of[plane_of[x]];
    return x;
  };
  for (size_t k = 0; k < by_host.size();) {
    const std::string& name = c.hcas[by_host[k]].host;
    size_t end = k;
    while (end < by_host.size() && c.hcas[by_host[end]].host == name) ++end;
    // [k, end): this host's HCAs, in runs of one fabric each
    std::vector<std::pair<size_t, size_t>> runs;
    size_t most = 0;
    for (size_t r = k; r < end;) {
      size_t run_end = r;
      while (run_end < end && c.hcas[by_host[run_end]].fabric == c.hcas[by_host[r]].fabric) ++run_end;
      runs.emplace_back(r, run_end);
      most = std::max(most, run_end - r);
      r = run_end;
    }
    Host h;
    h.name = name;
    h.fabric = -1;
    for (const auto& [from, to] : runs) {
      if (to - from != most) continue;
      const int f = c.hcas[by_host[from]].fabric;
      if (h.fabric < 0) h.fabric = f;
      else plane_of[find(f)] = find(h.fabric);
      h.hcas.insert(h.hcas.end(), by_host.begin() + from, by_host.begin() + to);
    }
    k = end;
    std::sort(h.hcas.begin(), h.hcas.end(), [&](int a, int b) {
      const Hca &x = c.hcas[a], &y = c.hcas[b];
      if (x.fabric != y.fabric) return x.fabric < y.fabric;
      return natural_less(x.rail, y.rail) || (x.rail == y.rail && x.guid < y.guid);
    });
    c.hosts.push_back(std::move(h));
  }
  // Natural order, sorting indices: swapping whole Hosts cost a tenth of the model's time.
  std::vector<int> order(c.hosts.size());
  std::iota(order.begin(), order.end(), 0);
  auto by_name = [&](int a, int b) { return natural_less(c.hosts[a].name, c.hosts[b].name); };
  // by_host's order already is natural for zero-padded names, the usual case: one pass checks it.
  if (!std::is_sorted(order.begin(), order.end(), by_name)) std::sort(order.begin(), order.end(), by_name);
  std::vector<Host> sorted;
  sorted.reserve(c.hosts.size());
  for (int i : order) sorted.push_back(std::move(c.hosts[i]));
  c.hosts = std::move(sorted);
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

}  // namespace slurmtopo
