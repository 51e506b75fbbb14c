#include "simulate/whatif/route_changes.h"

#include <map>
#include <tuple>

namespace slurmtopo {
namespace {

// A directed cable, named by what survives an edit: both ends' node GUID and port.
using CableEnd = std::tuple<uint64_t, int, uint64_t, int>;

std::vector<CableEnd> cables_of(const Cluster& c, const std::vector<PathShare>& route) {
  std::vector<CableEnd> out;
  for (const PathShare& p : route)
    for (const DirectedLink& d : p.links) {
      const Link& l = c.fabrics[d.fabric].links[d.link];
      const LinkEnd& from = d.a_to_b ? l.a : l.b;
      const LinkEnd& to = d.a_to_b ? l.b : l.a;
      out.emplace_back(from.guid, from.port, to.guid, to.port);
    }
  return out;
}

// host → HCA index per rail position, for the hosts asked about.
std::map<int, int> rails_of(const Cluster& c, const std::string& host) {
  std::map<int, int> out;
  const int h = c.host_index(host);
  if (h < 0) return out;
  // Rails by position; on a plain fat tree (no rails) by the HCA's order in its host.
  int k = 0;
  for (int i : c.hosts[h].hcas) {
    const int rail = c.hcas[i].position >= 0 ? c.hcas[i].position : 1000 + k;
    ++k;
    if (!c.hcas[i].switches.empty()) out.emplace(rail, i);
  }
  return out;
}

}  // namespace

RouteChanges job_route_changes(const WhatifCase& before, const WhatifCase& after, const std::vector<std::string>& hosts) {
  RouteChanges out;
  if (hosts.size() < 2) return out;
  const Cluster& cb = *before.cluster;
  const Cluster& ca = *after.cluster;
  std::vector<std::map<int, int>> rb, ra;
  for (const std::string& h : hosts) {
    rb.push_back(rails_of(cb, h));
    ra.push_back(rails_of(ca, h));
  }
  for (size_t d = 1; d < hosts.size(); d *= 2)
  for (size_t i = 0; i < hosts.size(); ++i) {
    const size_t j = (i + d) % hosts.size();
    for (const auto& [rail, src_b] : rb[i]) {
      const auto dst_b = rb[j].find(rail);
      const auto src_a = ra[i].find(rail);
      const auto dst_a = ra[j].find(rail);
      if (dst_b == rb[j].end() || src_a == ra[i].end() || dst_a == ra[j].end()) continue;
      const auto path_b = cables_of(cb, before.fabric->routing().route(src_b, dst_b->second));
      const auto path_a = cables_of(ca, after.fabric->routing().route(src_a->second, dst_a->second));
      if (path_b.empty() || path_a.empty()) continue;
      ++out.flows;
      out.moved += path_b != path_a;
    }
  }
  return out;
}

}  // namespace slurmtopo
