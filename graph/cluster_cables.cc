#include "graph/cluster_cables.h"

#include "graph/cable_names.h"

namespace slurmtopo {

namespace {

// An end as a plan names it. `vertex` is -1 where the sweep has no node for that GUID (a
// partial sweep): the GUID names it, as for a CA no host claims.
PlanEnd plan_end(const Cluster& c, const CableNames& names, int vertex, const LinkEnd& e) {
  if (vertex >= 0) {
    if (const int s = names.switch_at(vertex); s >= 0) return {c.switches[s].name, std::to_string(e.port), true};
    if (const int h = names.hca_at(vertex); h >= 0 && !c.hcas[h].host.empty()) {
      const Hca& hca = c.hcas[h];
      // A host's HCA by its name; the port only where it is not the first.
      std::string port = hca.rail.empty() ? "port" : hca.rail;
      if (e.port != 1 || hca.rail.empty()) port += (hca.rail.empty() ? " " : "/") + std::to_string(e.port);
      return {hca.host, port, false};
    }
  }
  return {"0x" + guid_hex(e.guid), std::to_string(e.port), false};
}

}  // namespace

CablePlan cluster_cables(const Cluster& c) {
  CablePlan plan;
  const CableNames names(c);
  for (size_t f = 0; f < c.fabrics.size(); ++f)
    for (size_t i = 0; i < c.fabrics[f].links.size(); ++i) {
      const Link& l = c.fabrics[f].links[i];
      const auto [va, vb] = c.link_vertices[f][i];
      plan.cables.push_back({plan_end(c, names, va, l.a), plan_end(c, names, vb, l.b), l.width, l.speed, 0});
    }
  return plan;
}

}  // namespace slurmtopo
