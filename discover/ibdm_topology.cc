#include "discover/ibdm_topology.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/text.h"
#include "base/words.h"

namespace slurmtopo {

namespace {

bool indented(std::string_view line) { return !line.empty() && (line[0] == ' ' || line[0] == '\t'); }

std::string_view clean(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_arrow(std::string_view w) { return w.size() >= 2 && w[0] == '-' && w.substr(w.size() - 2) == "->"; }

// ibdm's speeds, as Gb/s per lane ("5G") or by name.
LinkSpeed arrow_speed(std::string_view s) {
  static const std::map<std::string_view, LinkSpeed> speeds = {
      {"2.5G", LinkSpeed::SDR}, {"5G", LinkSpeed::DDR},   {"10G", LinkSpeed::QDR},  {"14G", LinkSpeed::FDR},
      {"25G", LinkSpeed::EDR},  {"50G", LinkSpeed::HDR},  {"100G", LinkSpeed::NDR}, {"200G", LinkSpeed::XDR},
      {"FDR10", LinkSpeed::FDR10}};
  auto it = speeds.find(s);
  if (it != speeds.end()) return it->second;
  return parse_link_speed(std::string(s));
}

// One end as the file writes it, before it is known whether its system is a switch.
struct RawEnd {
  std::string system, port;
};

struct RawCable {
  RawEnd a, b;
  int width = 0;
  LinkSpeed speed = LinkSpeed::Unknown;
  int line = 0;
};

struct System {
  std::string type;
  std::set<std::string> ports;
  std::set<std::string> peers;
};

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

// "L1/P2", "S3/P1": a line card's or spine module's port inside a director.
bool director_port(std::string_view port) {
  const size_t slash = port.find('/');
  if (slash == std::string_view::npos || slash < 2) return false;
  if (port[0] != 'L' && port[0] != 'S') return false;
  for (size_t i = 1; i < slash; ++i)
    if (!std::isdigit(static_cast<unsigned char>(port[i]))) return false;
  return true;
}

// "P13" or "13": 13; 0 otherwise.
int plain_port(std::string_view port) {
  if (!port.empty() && port[0] == 'P') port.remove_prefix(1);
  if (port.empty() || port.size() > 3) return 0;
  int n = 0;
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

bool looks_like_ibdm_topology(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  bool system = false;
  while (lines.next(line)) {
    line = clean(line);
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (!system) {
      // A port line first: a topology file that lost its first system line (the reader says so).
      if (indented(line)) {
        const auto w = words(line);
        return w.size() >= 2 && is_arrow(w[1]);
      }
      if (words(line).size() < 2) return false;
      system = true;
      continue;
    }
    const auto w = words(line);
    return indented(line) && w.size() >= 2 && is_arrow(w[1]);
  }
  return false;
}

CablePlan parse_ibdm_topology(std::string_view text, const std::string& file) {
  std::vector<RawCable> raw;
  std::map<std::string, System> systems;
  LineReader lines(text);
  std::string_view line;
  std::string current;  // the system whose block this is; "" outside a block
  while (lines.next(line)) {
    const int number = lines.number();
    line = clean(line);
    const std::string_view t = trim(line);
    if (t.empty()) {
      current.clear();
      continue;
    }
    if (t[0] == '#') continue;
    const auto w = words(line);
    if (!indented(line)) {
      if (w.size() < 2 || (w.size() > 2 && w[2].substr(0, 4) != "CFG:"))
        throw InputError(file, number, "expected a system line `SYSTEM-TYPE SYSTEM-NAME [CFG: ...]`, found " + snippet(t));
      current = std::string(w[1]);
      System& s = systems[current];
      if (!s.type.empty() && s.type != w[0])
        throw InputError(file, number, "expected one type for system " + current + ", found " + std::string(w[0]) +
                                           " here and " + s.type + " before");
      s.type = std::string(w[0]);
      continue;
    }
    if (current.empty())
      throw InputError(file, number, "expected a system line (`SYSTEM-TYPE SYSTEM-NAME`) before this port line, found " + snippet(t));
    if (w.size() != 5 || !is_arrow(w[1]))
      throw InputError(file, number, "expected a port line `LOCAL-PORT -4x-25G-> REMOTE-TYPE REMOTE-NAME REMOTE-PORT`, found " + snippet(t));
    RawCable c{{current, std::string(w[0])}, {std::string(w[3]), std::string(w[4])}, 0, LinkSpeed::Unknown, number};
    // "-4x-5G->": between the first '-' and the "->", a width (…x) and a speed (…G), each optional.
    std::string_view rate = w[1].size() > 2 ? w[1].substr(1, w[1].size() - 3) : std::string_view();
    while (!rate.empty()) {
      const size_t dash = rate.find('-');
      const std::string_view part = rate.substr(0, dash);
      rate = dash == std::string_view::npos ? std::string_view() : rate.substr(dash + 1);
      if (!part.empty() && (part.back() == 'x' || part.back() == 'X') && c.width == 0) {
        for (int n : {1, 2, 4, 8, 12})
          if (part.substr(0, part.size() - 1) == std::to_string(n)) c.width = n;
        if (c.width) continue;
      } else if (c.speed == LinkSpeed::Unknown && (c.speed = arrow_speed(part)) != LinkSpeed::Unknown) {
        continue;
      }
      throw InputError(file, number, "expected the cable's width and speed as -4x-25G-> (1x/4x/8x/12x; 2.5G to 200G), found " + snippet(w[1]));
    }
    for (const RawEnd* e : {&c.a, &c.b})
      if (director_port(e->port))
        throw InputError(file, number, "expected a port of a single-chip switch or a host (P1, U1/P1, mlx5_0/P1), found " +
                                           snippet(e->port) + ", a director's line-card port: its IBNL is not read, give "
                                           "this fabric's plan as a cable list (docs/cabling-plan.md)");
    System& remote = systems[c.b.system];
    if (remote.type.empty()) remote.type = std::string(w[2]);
    systems[c.a.system].ports.insert(c.a.port);
    systems[c.a.system].peers.insert(c.b.system);
    remote.ports.insert(c.b.port);
    remote.peers.insert(c.a.system);
    raw.push_back(std::move(c));
  }

  // Which systems are hosts: by type or port names; a switch by its ports. Then, until nothing
  // changes, a system with more than two peers or a host among them is a switch, and one whose
  // peers are all switches a host. Whatever is left is a switch.
  std::map<std::string, int> role;  // 1 host, 2 switch
  for (const auto& [name, s] : systems) {
    bool host = starts_with_nocase(s.type, "HCA");
    for (const auto& p : s.ports)
      if (p.find('/') != std::string::npos && plan_hca_port(p)) host = true;
    bool big = s.ports.size() > 2;
    for (const auto& p : s.ports) big = big || plain_port(p) > 2;
    if (host) role[name] = 1;
    else if (big) role[name] = 2;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, s] : systems) {
      if (role.count(name)) continue;
      bool host_peer = false, all_switches = true;
      for (const auto& peer : s.peers) {
        auto it = role.find(peer);
        host_peer = host_peer || (it != role.end() && it->second == 1);
        all_switches = all_switches && it != role.end() && it->second == 2;
      }
      if (s.peers.size() > 2 || host_peer) role[name] = 2, changed = true;
      else if (all_switches) role[name] = 1, changed = true;
    }
  }
  for (const auto& [name, s] : systems) role.emplace(name, 2);

  CablePlan plan;
  plan.source = file;
  std::map<std::pair<std::string, std::string>, int> at;  // end → cable index
  for (const RawCable& c : raw) {
    auto end = [&](const RawEnd& e) -> PlanEnd {
      if (role.at(e.system) == 2) {
        if (auto p = plan_switch_port(e.port)) return {e.system, *p, true};
        throw InputError(file, c.line, "expected a switch port P<n> on " + e.system + ", found " + snippet(e.port));
      }
      if (const int n = plain_port(e.port); n && e.port[0] == 'P') return {e.system, hca_port("", n), false};
      if (auto p = plan_hca_port(e.port)) return {e.system, *p, false};
      throw InputError(file, c.line, "expected a host port P<n>, U<n>/P<k> or <hca>/P<k> on " + e.system + ", found " + snippet(e.port));
    };
    PlannedCable cable{end(c.a), end(c.b), c.width, c.speed, c.line};
    const auto ka = std::make_pair(cable.a.device, cable.a.port);
    const auto kb = std::make_pair(cable.b.device, cable.b.port);
    // Listed from both systems: one cable. Listed to another end: the file contradicts itself.
    auto ia = at.find(ka), ib = at.find(kb);
    if (ia != at.end() || ib != at.end()) {
      const int i = ia != at.end() ? ia->second : ib->second;
      const PlannedCable& seen = plan.cables[i];
      const bool same = (seen.a.device == cable.b.device && seen.a.port == cable.b.port && seen.b.device == cable.a.device &&
                         seen.b.port == cable.a.port) ||
                        (seen.a.device == cable.a.device && seen.a.port == cable.a.port && seen.b.device == cable.b.device &&
                         seen.b.port == cable.b.port);
      if (same && (ia == at.end() || ib == at.end() || ia->second == ib->second)) continue;
      const PlanEnd& twice = ia != at.end() ? cable.a : cable.b;
      throw InputError(file, c.line, "expected each port cabled once, but " + named(twice) + " is cabled to " +
                                         named(seen.a.device == twice.device && seen.a.port == twice.port ? seen.b : seen.a) +
                                         " at line " + std::to_string(seen.line));
    }
    at[ka] = at[kb] = static_cast<int>(plan.cables.size());
    plan.cables.push_back(std::move(cable));
  }
  return plan;
}

}  // namespace slurmtopo
