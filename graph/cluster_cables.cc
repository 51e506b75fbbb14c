#include "graph/cluster_cables.h"

#include <map>

namespace slurmtopo {

namespace {

class EndNamer {
 public:
  explicit EndNamer(const Cluster& c) : c_(c) {
    for (size_t i = 0; i < c.switches.size(); ++i) switch_at_[c.switches[i].vertex] = static_cast<int>(i);
    for (size_t i = 0; i < c.hcas.size(); ++i) hca_at_[c.hcas[i].vertex] = static_cast<int>(i);
  }

  PlanEnd operator()(Vertex v, const LinkEnd& e) const {
    if (auto s = switch_at_.find(v); s != switch_at_.end())
      return {c_.switches[s->second].name, std::to_string(e.port), true};
    if (auto h = hca_at_.find(v); h != hca_at_.end() && !c_.hcas[h->second].host.empty()) {
      const Hca& hca = c_.hcas[h->second];
      // A host's HCA by its name; the port only where it is not the first.
      std::string port = hca.rail.empty() ? "port" : hca.rail;
      if (e.port != 1 || hca.rail.empty()) port += (hca.rail.empty() ? " " : "/") + std::to_string(e.port);
      return {hca.host, port, false};
    }
    return {"0x" + guid_hex(e.guid), std::to_string(e.port), false};
  }

 private:
  const Cluster& c_;
  std::map<Vertex, int> switch_at_, hca_at_;
};

}  // namespace

CablePlan cluster_cables(const Cluster& c) {
  CablePlan plan;
  const EndNamer name(c);
  for (size_t f = 0; f < c.fabrics.size(); ++f)
    for (size_t i = 0; i < c.fabrics[f].links.size(); ++i) {
      const Link& l = c.fabrics[f].links[i];
      const auto [va, vb] = c.link_vertices[f][i];
      plan.cables.push_back({name(va, l.a), name(vb, l.b), l.width, l.speed, 0});
    }
  return plan;
}

}  // namespace slurmtopo
