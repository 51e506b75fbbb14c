#include "slurm/topology_conf.h"

#include <algorithm>
#include <functional>
#include <map>
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

std::vector<std::set<std::string>> nodes_below(const ParsedTopology& p) {
  std::map<std::string, size_t> index;  // a name defined twice: its first line
  for (size_t i = 0; i < p.switches.size(); ++i) index.emplace(p.switches[i].name, i);
  std::vector<std::set<std::string>> under(p.switches.size());
  std::vector<int> state(p.switches.size(), 0);  // 0 new, 1 being walked, 2 done
  std::function<void(size_t)> visit = [&](size_t i) {
    if (state[i]) return;
    state[i] = 1;
    under[i].insert(p.switches[i].nodes.begin(), p.switches[i].nodes.end());
    for (const auto& c : p.switches[i].switches)
      if (auto it = index.find(c); it != index.end() && state[it->second] != 1) {
        visit(it->second);
        under[i].insert(under[it->second].begin(), under[it->second].end());
      }
    state[i] = 2;
  };
  for (size_t i = 0; i < p.switches.size(); ++i) visit(i);
  return under;
}

}  // namespace slurmtopo
