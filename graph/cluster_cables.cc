#include "graph/cluster_cables.h"

#include "discover/cable_list.h"
#include "graph/cable_names.h"

namespace slurmtopo {

namespace {

// An end as a plan names it. `vertex` is -1 where the sweep has no node for that GUID (a
// partial sweep): the GUID names it, as for a CA no host claims.
PlanEnd plan_end(const Cluster& c, const CableNames& names, int vertex, const LinkEnd& e) {
  if (vertex >= 0) {
    if (const int s = names.switch_at(vertex); s >= 0) return {c.switches[s].name, std::to_string(e.port), true};
    if (const int h = names.hca_at(vertex); h >= 0 && !c.hcas[h].host.empty()) {
      // A host's HCA by its name; the port only where it is not the first.
      return {c.hcas[h].host, hca_port(c.hcas[h].rail, e.port), false};
    }
  }
  return {"0x" + guid_hex(e.guid), hca_port("", e.port), false};
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

std::string cable_list_of(std::vector<Fabric> fabrics, const std::string& comment) {
  ClusterOptions plain;
  plain.judge_cable_rates = false;
  return cable_list_text(cluster_cables(build_cluster(std::move(fabrics), plain)), comment);
}

}  // namespace slurmtopo
