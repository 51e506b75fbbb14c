#include "graph/cluster_cables.h"

#include <tuple>

#include "discover/cable_list.h"
#include "graph/cable_names.h"
#include "graph/host_names.h"

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
      PlannedCable cable{plan_end(c, names, va, l.a), plan_end(c, names, vb, l.b), l.width, l.speed, 0};
      // A switch's SHARP aggregation node by its switch ("leaf03 aggregation node"), not its
      // GUID: a replaced switch brings a new one, and it is still the planned one.
      for (auto [end, node, other] : {std::tuple{&cable.a, &l.a, &cable.b}, std::tuple{&cable.b, &l.b, &cable.a}}) {
        const FabricNode* n = other->switch_end ? c.fabrics[f].find(node->guid) : nullptr;
        if (n && n->kind == NodeKind::Ca && is_aggregation_node(n->description))
          *end = {other->device + " aggregation node", hca_port("", node->port), false};
      }
      plan.cables.push_back(std::move(cable));
    }
  return plan;
}

std::string cable_list_of(std::vector<Fabric> fabrics, const std::string& comment) {
  ClusterOptions plain;
  plain.judge_cable_rates = false;
  return cable_list_text(cluster_cables(build_cluster(std::move(fabrics), plain)), comment);
}

}  // namespace slurmtopo
