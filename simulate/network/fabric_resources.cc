#include "simulate/network/fabric_resources.h"

#include <algorithm>

namespace slurmtopo {

DirectedLink FabricResources::link_of(int resource) const {
  const int f = static_cast<int>(std::upper_bound(fabric_offset.begin(), fabric_offset.end(), resource) -
                                 fabric_offset.begin()) - 1;
  const int local = resource - fabric_offset[f];
  return {f, local / 2, local % 2 == 0};
}

FabricResources number_cables(const Cluster& cluster) {
  FabricResources out;
  int next = 0;
  for (const auto& f : cluster.fabrics) {
    out.fabric_offset.push_back(next);
    next += 2 * static_cast<int>(f.links.size());
  }
  // The last switch, then the last HCA with a host, on a vertex names it, as in make_fabric_resources.
  const size_t vertices = boost::num_vertices(cluster.graph);
  out.switch_at.assign(vertices, -1);
  out.hca_at.assign(vertices, -1);
  for (size_t s = 0; s < cluster.switches.size(); ++s) out.switch_at[cluster.switches[s].vertex] = static_cast<int>(s);
  for (size_t h = 0; h < cluster.hcas.size(); ++h)
    if (!cluster.hcas[h].host.empty()) out.hca_at[cluster.hcas[h].vertex] = static_cast<int>(h);
  return out;
}

std::string cable_name(const Cluster& cluster, const FabricResources& cables, int resource) {
  const DirectedLink d = cables.link_of(resource);
  const Fabric& fabric = cluster.fabrics[d.fabric];
  size_t base = 0;
  for (int f = 0; f < d.fabric; ++f) base += cluster.fabrics[f].nodes.size();
  // As make_fabric_resources names a vertex: an HCA by host and rail, else a switch by its
  // name, else the description or GUID.
  auto end_name = [&](const LinkEnd& e) {
    const FabricNode* n = fabric.find(e.guid);
    std::string node;
    if (!n) {
      node = guid_hex(e.guid);
    } else {
      const size_t v = base + (n - fabric.nodes.data());
      node = n->description.empty() ? guid_hex(n->guid) : n->description;
      if (const int s = cables.switch_at[v]; s >= 0) node = cluster.switches[s].name;
      if (const int h = cables.hca_at[v]; h >= 0) {
        const Hca& hca = cluster.hcas[h];
        node = hca.rail.empty() ? hca.host : hca.host + " " + hca.rail;
      }
    }
    return node + "[" + std::to_string(e.port) + "]";
  };
  const Link& link = fabric.links[d.link];
  const std::string prefix = cluster.fabrics.size() > 1 ? fabric.name + ":" : "";
  return d.a_to_b ? prefix + end_name(link.a) + "->" + end_name(link.b) : prefix + end_name(link.b) + "->" + end_name(link.a);
}

FabricResources make_fabric_resources(const Cluster& cluster, double efficiency) {
  FabricResources out;
  // Every node's name once.
  std::vector<std::string> name(boost::num_vertices(cluster.graph));
  for (size_t v = 0; v < name.size(); ++v) {
    const VertexRef& r = cluster.graph[v];
    const FabricNode& n = cluster.fabrics[r.fabric].nodes[r.node];
    name[v] = n.description.empty() ? guid_hex(n.guid) : n.description;
  }
  for (const auto& s : cluster.switches) name[s.vertex] = s.name;
  for (const auto& h : cluster.hcas)
    if (!h.host.empty()) name[h.vertex] = h.rail.empty() ? h.host : h.host + " " + h.rail;
  const bool several = cluster.fabrics.size() > 1;

  size_t total = 0;
  for (const auto& f : cluster.fabrics) total += 2 * f.links.size();
  out.resources.reserve(total);
  size_t base = 0;
  for (int f = 0; f < static_cast<int>(cluster.fabrics.size()); ++f) {
    const Fabric& fabric = cluster.fabrics[f];
    out.fabric_offset.push_back(static_cast<int>(out.resources.size()));
    const std::string prefix = several ? fabric.name + ":" : "";
    auto end_name = [&](const LinkEnd& e) {
      const FabricNode* n = fabric.find(e.guid);
      const std::string& node = n ? name[base + (n - fabric.nodes.data())] : guid_hex(e.guid);
      return node + "[" + std::to_string(e.port) + "]";
    };
    for (const Link& link : fabric.links) {
      const double capacity = link.gbps() / 8.0 * efficiency;
      const std::string a = end_name(link.a), b = end_name(link.b);
      out.resources.push_back({prefix + a + "->" + b, capacity});
      out.resources.push_back({prefix + b + "->" + a, capacity});
    }
    base += fabric.nodes.size();
  }
  return out;
}

void add_path_resources(const FabricResources& fabric, const std::vector<PathShare>& paths,
                        Flow& flow, int base) {
  flow.weights.resize(flow.resources.size(), 1.0);  // empty weights meant 1.0 each
  for (const PathShare& p : paths)
    for (const DirectedLink& d : p.links) {
      flow.resources.push_back(base + fabric.index(d));
      flow.weights.push_back(p.share);
    }
  merge_repeated_resources(flow);
}

}  // namespace slurmtopo
