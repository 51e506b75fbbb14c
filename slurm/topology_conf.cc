#include "slurm/topology_conf.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "slurm/config_lines.h"
#include "slurm/hostlist.h"

namespace slurmtopo {


ParsedTopology parse_topology_conf(std::string_view text, const std::string& file) {
  ParsedTopology out;
  out.file = file;
  for (const SlurmConfLine& logical : read_slurm_conf_lines(text)) {
    const int number = logical.number;
    auto ws = slurm_conf_words(logical.text);
    if (ws.empty()) continue;
    TopologyLine t;
    t.line = number;
    bool ok = true;
    for (auto w : ws) {
      size_t eq = w.find('=');
      if (eq == std::string_view::npos) {
        out.errors.push_back({number, "expected Key=Value, got '" + std::string(w) + "'"});
        ok = false;
        break;
      }
      std::string key = ascii_lower(w.substr(0, eq));
      std::string value(w.substr(eq + 1));
      if (key == "switchname") t.name = value;
      else if (key == "nodes") t.has_nodes = true, t.nodes_expr = value;
      else if (key == "switches") t.has_switches = true, t.switches_expr = value;
      else if (key == "linkspeed") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
          out.errors.push_back({number, "LinkSpeed must be an unsigned number"});
      } else if (key == "ringname") {
        // topology/ring (26.05) reads RingName= lines: a real form, not a typo.
        out.errors.push_back({number, "RingName= is topology/ring (Slurm 26.05), which slurmtopo does not read or "
                                      "emulate yet: it reads SwitchName= (tree) and BlockName= (block) lines"});
        ok = false;
        break;
      } else {
        out.errors.push_back({number, "unknown key '" + std::string(w.substr(0, eq)) +
                                          "' (expected SwitchName, Nodes, Switches, LinkSpeed)"});
        ok = false;
      }
    }
    if (!ok) continue;
    if (t.name.empty()) {
      out.errors.push_back({number, "expected SwitchName= on every line"});
      continue;
    }
    try {
      if (t.has_nodes) t.nodes = expand_hostlist(t.nodes_expr);
      if (t.has_switches) t.switches = expand_hostlist(t.switches_expr);
    } catch (const std::invalid_argument& e) {
      out.errors.push_back({number, "unparsable hostlist: " + std::string(e.what())});
      continue;
    }
    out.switches.push_back(std::move(t));
  }
  return out;
}

std::vector<NodeListing> node_listings(const ParsedTopology& p) {
  std::vector<NodeListing> out;
  for (const auto& s : p.switches)
    for (const auto& n : s.nodes) out.push_back({n, &s, out.size()});
  std::sort(out.begin(), out.end(),
            [](const NodeListing& x, const NodeListing& y) { return std::tie(x.node, x.order) < std::tie(y.node, y.order); });
  return out;
}

}  // namespace slurmtopo
