#include "emit/topology_conf_parse.h"

#include <cctype>
#include <stdexcept>

#include "graph/hostlist.h"

namespace slurmtopo {

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}
}  // namespace

ParsedTopology parse_topology_conf(std::string_view text, const std::string& file) {
  ParsedTopology out;
  out.file = file;
  int number = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++number;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    auto ws = words(line);
    if (ws.empty()) {
      if (eol == text.size()) break;
      continue;
    }
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
      std::string key = lower(w.substr(0, eq));
      std::string value(w.substr(eq + 1));
      if (key == "switchname") t.name = value;
      else if (key == "nodes") t.has_nodes = true, t.nodes_expr = value;
      else if (key == "switches") t.has_switches = true, t.switches_expr = value;
      else if (key == "linkspeed") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
          out.errors.push_back({number, "LinkSpeed must be an unsigned number"});
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
    if (eol == text.size()) break;
  }
  return out;
}

}  // namespace slurmtopo
