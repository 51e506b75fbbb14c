// Faults injected into a generated fabric (tests, samples): cables removed, degraded, moved to
// the wrong leaf or crossed, HCAs left with their factory description.
#include "discover/synthetic_faults.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"

namespace slurmtopo {
namespace {

// A fault that does not fit the fabric; apply_faults names the option that asked for it.
struct FaultError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

void require(bool ok, const std::string& why) {
  if (!ok) throw FaultError(why);
}

}  // namespace

namespace {

// "MF0;leaf001:MQM9700/U1" → "leaf001".
std::string switch_name_of(const FabricNode& n) {
  const std::string& d = n.description;
  if (d.rfind("MF0;", 0) != 0) return d;
  const size_t colon = d.find(':', 4);
  return d.substr(4, colon == std::string::npos ? std::string::npos : colon - 4);
}

bool is_host_hca(const FabricNode& n) { return is_synthetic_host_hca(n); }

bool names(const FabricNode& n, const std::string& name) {
  if (n.kind == NodeKind::Switch) return switch_name_of(n) == name;
  if (!is_host_hca(n)) return false;
  return n.description == name || n.description.substr(0, n.description.find(' ')) == name;
}

// Node GUIDs a fault name stands for, sorted (nodes are).
std::vector<uint64_t> resolve(const Fabric& f, const std::string& name) {
  std::vector<uint64_t> guids;
  for (const auto& n : f.nodes)
    if (names(n, name)) guids.push_back(n.guid);
  require(!guids.empty(), "no switch or host named '" + name + "'");
  return guids;
}

bool contains(const std::vector<uint64_t>& sorted, uint64_t guid) {
  return std::binary_search(sorted.begin(), sorted.end(), guid);
}

// The first cable (in link order, so the lowest port) between two named nodes.
Link& find_cable(Fabric& f, const std::string& a, const std::string& b) {
  const auto as = resolve(f, a), bs = resolve(f, b);
  for (auto& l : f.links)
    if ((contains(as, l.a.guid) && contains(bs, l.b.guid)) ||
        (contains(bs, l.a.guid) && contains(as, l.b.guid)))
      return l;
  throw FaultError("no cable between '" + a + "' and '" + b + "'");
}

const FabricNode* switch_named(const Fabric& f, const std::string& name) {
  for (const auto& n : f.nodes)
    if (n.kind == NodeKind::Switch && switch_name_of(n) == name) return &n;
  return nullptr;
}

// The leaf in the same role one group on: su<s+1>-rail<r> for a rail leaf, otherwise the next
// trailing number (leaf004 → leaf005); both wrap to 1.
const FabricNode& next_leaf(const Fabric& f, const FabricNode& leaf) {
  const std::string name = switch_name_of(leaf);
  auto is_digits = [&](size_t from, size_t to) {
    return from < to && std::all_of(name.begin() + from, name.begin() + to, [](char ch) {
             return std::isdigit(static_cast<unsigned char>(ch));
           });
  };
  size_t begin = name.size(), end = name.size();
  const size_t rail = name.rfind("-rail");
  const size_t su = rail == std::string::npos ? std::string::npos : name.rfind("su", rail);
  if (su != std::string::npos && is_digits(su + 2, rail)) {
    begin = su + 2;
    end = rail;
  } else {
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(name[begin - 1]))) --begin;
  }
  require(is_digits(begin, end), "cannot tell which leaf follows '" + name + "'");
  const size_t width = end - begin;
  auto with = [&](long long n) {
    std::string number = std::to_string(n);
    if (number.size() < width) number.insert(0, width - number.size(), '0');
    return name.substr(0, begin) + number + name.substr(end);
  };
  for (const auto& candidate : {with(std::stoll(name.substr(begin, width)) + 1), with(1)})
    if (const FabricNode* n = switch_named(f, candidate); n && n->guid != leaf.guid) return *n;
  throw FaultError("no leaf follows '" + name + "'");
}

LinkEnd& end_at(Link& l, uint64_t guid) { return l.a.guid == guid ? l.a : l.b; }
LinkEnd& far_end(Link& l, uint64_t guid) { return l.a.guid == guid ? l.b : l.a; }

void move_switch_end(LinkEnd& e, const FabricNode& to, int port) {
  e.guid = to.guid;
  e.lid = to.lid;
  e.port = port;
}

void miscable_rail(Fabric& f, const std::string& host, int rail) {
  const std::string description = host + " mlx5_" + std::to_string(rail);
  const auto hca = resolve(f, description);
  auto own = std::find_if(f.links.begin(), f.links.end(), [&](const Link& l) {
    return l.a.guid == hca.front() || l.b.guid == hca.front();
  });
  require(own != f.links.end(), "'" + description + "' has no cable");
  LinkEnd& leaf_end = far_end(*own, hca.front());
  const FabricNode* leaf = f.find(leaf_end.guid);
  require(leaf && leaf->kind == NodeKind::Switch, "'" + description + "' is not on a switch");
  const FabricNode& target = next_leaf(f, *leaf);

  std::vector<bool> used(target.num_ports + 1, false);
  Link* same_port = nullptr;
  for (auto& l : f.links)
    for (LinkEnd* e : {&l.a, &l.b})
      if (e->guid == target.guid && e->port <= target.num_ports) {
        used[e->port] = true;
        if (e->port == leaf_end.port) same_port = &l;
      }
  // The last port is the internal SHARP one, never cabled.
  const auto free = std::find(used.begin() + 1, used.end() - 1, false);
  if (free != used.end() - 1) {
    move_switch_end(leaf_end, target, static_cast<int>(free - used.begin()));
    return;
  }
  const FabricNode* partner = same_port ? f.find(far_end(*same_port, target.guid).guid) : nullptr;
  require(partner && is_host_hca(*partner),
          "no free port or HCA to swap with on '" + switch_name_of(target) + "'");
  const int port = leaf_end.port;
  move_switch_end(end_at(*same_port, target.guid), *leaf, port);
  move_switch_end(leaf_end, target, port);
}


// The two HCAs' cables change switch ends: mlx5_j lands where mlx5_k was, and the reverse.
void cross_rails(Fabric& f, const CrossedRails& x) {
  auto cable_of = [&](int rail) -> std::pair<Link*, uint64_t> {
    const std::string description = x.host + " mlx5_" + std::to_string(rail);
    const uint64_t hca = resolve(f, description).front();
    for (auto& l : f.links)
      if (l.a.guid == hca || l.b.guid == hca) return {&l, hca};
    require(false, "'" + description + "' has no cable");
    return {nullptr, 0};
  };
  require(x.rail_j != x.rail_k, "expected two different rails");
  auto [lj, hj] = cable_of(x.rail_j);
  auto [lk, hk] = cable_of(x.rail_k);
  std::swap(far_end(*lj, hj), far_end(*lk, hk));
}

// The cable end plugged into that switch port.
LinkEnd& end_in(Fabric& f, const SwitchPort& at) {
  const FabricNode* sw = switch_named(f, at.name);
  require(sw != nullptr, "no switch named '" + at.name + "'");
  for (auto& l : f.links)
    for (LinkEnd* e : {&l.a, &l.b})
      if (e->guid == sw->guid && e->port == at.port) return *e;
  throw FaultError("no cable in " + at.name + "[" + std::to_string(at.port) + "]");
}

LinkEnd& other_end(Fabric& f, const LinkEnd& e) {
  for (auto& l : f.links) {
    if (&l.a == &e) return l.b;
    if (&l.b == &e) return l.a;
  }
  throw FaultError("a cable end outside the fabric's cables");
}

void swap_cables(Fabric& f, const SwitchPort& x, const SwitchPort& y) {
  LinkEnd& ex = end_in(f, x);
  LinkEnd& ey = end_in(f, y);
  require(&ex != &ey, "expected two different ports");
  // Each far end goes with the other port: x now reaches what y reached, and the reverse.
  std::swap(other_end(f, ex), other_end(f, ey));
}

void move_cable(Fabric& f, const SwitchPort& from, const SwitchPort& to) {
  LinkEnd& e = end_in(f, from);
  const FabricNode* sw = switch_named(f, to.name);
  require(sw != nullptr, "no switch named '" + to.name + "'");
  require(to.port >= 1 && to.port <= sw->num_ports,
          to.name + " has ports 1-" + std::to_string(sw->num_ports) + ", not " + std::to_string(to.port));
  for (const auto& l : f.links)
    for (const LinkEnd* o : {&l.a, &l.b})
      require(!(o->guid == sw->guid && o->port == to.port),
              to.name + "[" + std::to_string(to.port) + "] already holds a cable");
  move_switch_end(e, *sw, to.port);
}

// Every leaf of the unit (switches named "<unit>-…"): its host cables each one port on, the
// last back to the first host port: a unit cabled one port off on every leaf alike, which no
// comparison of the unit's hosts with each other can see.
void offset_unit(Fabric& f, const std::string& unit) {
  std::vector<uint64_t> switches;
  for (const auto& n : f.nodes)
    if (n.kind == NodeKind::Switch) switches.push_back(n.guid);
  std::sort(switches.begin(), switches.end());
  bool found = false;
  for (const auto& sw : f.nodes) {
    if (sw.kind != NodeKind::Switch || switch_name_of(sw).rfind(unit + "-", 0) != 0) continue;
    std::vector<LinkEnd*> host_ends;  // this leaf's ends of its host cables
    for (auto& l : f.links)
      for (auto [near, far] : {std::pair{&l.a, &l.b}, std::pair{&l.b, &l.a}})
        if (near->guid == sw.guid && !contains(switches, far->guid)) host_ends.push_back(near);
    if (host_ends.size() < 2) continue;
    found = true;
    std::sort(host_ends.begin(), host_ends.end(), [](const LinkEnd* a, const LinkEnd* b) { return a->port < b->port; });
    const int first = host_ends.front()->port;
    for (size_t i = 0; i + 1 < host_ends.size(); ++i) host_ends[i]->port = host_ends[i + 1]->port;
    host_ends.back()->port = first;
  }
  require(found, "no leaf named '" + unit + "-…' with two or more host cables");
}

// Nodes among `candidates` that no cable reaches any more.
void drop_uncabled(Fabric& f, std::vector<uint64_t> candidates) {
  std::sort(candidates.begin(), candidates.end());
  std::vector<uint64_t> cabled;
  for (const auto& l : f.links)
    if (contains(candidates, l.a.guid) || contains(candidates, l.b.guid))
      cabled.insert(cabled.end(), {l.a.guid, l.b.guid});
  std::sort(cabled.begin(), cabled.end());
  std::erase_if(f.nodes, [&](const FabricNode& n) {
    return contains(candidates, n.guid) && !contains(cabled, n.guid);
  });
}

}  // namespace

void apply_faults(Fabric& fabric, const Faults& faults) {
  auto as_option = [](const char* option, auto&& apply) {
    try {
      apply();
    } catch (const FaultError& e) {
      throw InputError(option, 0, e.what());
    }
  };
  as_option("miscable_rail", [&] {
    for (const auto& [host, rail] : faults.miscable_rail) miscable_rail(fabric, host, rail);
  });
  as_option("--cross-rails", [&] {
    for (const auto& x : faults.cross_rails) cross_rails(fabric, x);
  });
  as_option("--swap-cables", [&] {
    for (const auto& [x, y] : faults.swap_cables) swap_cables(fabric, x, y);
  });
  as_option("--move-cable", [&] {
    for (const auto& [from, to] : faults.move_cables) move_cable(fabric, from, to);
  });
  as_option("--offset-unit", [&] {
    for (const auto& unit : faults.offset_units) offset_unit(fabric, unit);
  });
  // Back in link order, so "the first cable between" below means the lowest port.
  if (!faults.miscable_rail.empty() || !faults.cross_rails.empty() || !faults.swap_cables.empty() ||
      !faults.move_cables.empty() || !faults.offset_units.empty())
    normalize(fabric);

  std::vector<uint64_t> touched;
  as_option("--remove-cable", [&] {
    for (const auto& [a, b] : faults.remove_cables) {
      Link& cable = find_cable(fabric, a, b);
      touched.insert(touched.end(), {cable.a.guid, cable.b.guid});
      fabric.links.erase(fabric.links.begin() + (&cable - fabric.links.data()));
    }
  });
  as_option("--degrade-cable", [&] {
    for (const auto& d : faults.degrade_cables) {
      Link& cable = find_cable(fabric, d.a, d.b);
      if (d.width) cable.width = d.width;
      if (d.speed != LinkSpeed::Unknown) cable.speed = d.speed;
    }
  });
  as_option("unnamed_hosts", [&] {
    for (const auto& host : faults.unnamed_hosts) {
      bool found = false;
      for (auto& n : fabric.nodes)
        if (is_host_hca(n) && names(n, host)) {
          n.description = synthetic_factory_description(n.device_id);
          found = true;
        }
      require(found, "no host named '" + host + "'");
    }
  });

  drop_uncabled(fabric, std::move(touched));
  normalize(fabric);
}

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  return parts;
}

}  // namespace

std::vector<std::pair<SwitchPort, SwitchPort>> parse_switch_port_pairs(const char* option,
                                                                       const std::vector<std::string>& args) {
  auto port_of = [](const std::string& text, SwitchPort& out) {
    const size_t open = text.find('[');
    if (open == 0 || open == std::string::npos || text.back() != ']') return false;
    const std::string digits = text.substr(open + 1, text.size() - open - 2);
    if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return false;
    out = {text.substr(0, open), std::stoi(digits)};
    return out.port >= 1;
  };
  std::vector<std::pair<SwitchPort, SwitchPort>> pairs;
  for (const auto& arg : args) {
    auto parts = split_commas(arg);
    SwitchPort a, b;
    if (parts.size() != 2 || !port_of(parts[0], a) || !port_of(parts[1], b))
      throw InputError(option, 0, "expected 'SWITCH[PORT],SWITCH[PORT]' (leaf01[3],leaf01[4]), got '" + arg + "'");
    pairs.emplace_back(a, b);
  }
  return pairs;
}

Faults parse_faults(const std::vector<std::string>& remove_cables, const std::vector<std::string>& degrade_cables,
                    const std::vector<std::string>& cross_rails) {
  Faults faults;
  for (const auto& arg : cross_rails) {
    auto parts = split_commas(arg);
    CrossedRails x;
    bool ok = (parts.size() == 1 || parts.size() == 3) && !parts[0].empty();
    try {
      if (ok && parts.size() == 3) x.rail_j = std::stoi(parts[1]), x.rail_k = std::stoi(parts[2]);
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok || x.rail_j < 0 || x.rail_k < 0 || x.rail_j == x.rail_k)
      throw InputError("--cross-rails", 0, "expected 'HOST' or 'HOST,J,K' (two different rail numbers), got '" + arg + "'");
    x.host = parts[0];
    faults.cross_rails.push_back(x);
  }
  for (const auto& arg : remove_cables) {
    auto parts = split_commas(arg);
    if (parts.size() != 2) throw InputError("--remove-cable", 0, "expected 'A,B' (two switch or host names), got '" + arg + "'");
    faults.remove_cables.emplace_back(parts[0], parts[1]);
  }
  for (const auto& arg : degrade_cables) {
    auto parts = split_commas(arg);
    if (parts.size() != 2 && parts.size() != 3)
      throw InputError("--degrade-cable", 0, "expected 'A,B[,1x|EDR|1xEDR]', got '" + arg + "'");
    CableDegrade d{parts[0], parts[1]};
    if (parts.size() == 3) {
      const std::string& link = parts[2];
      const size_t x = link.find('x');
      d.width = 0;
      if (x != std::string::npos) {
        try {
          d.width = std::stoi(link.substr(0, x));
        } catch (const std::exception&) {
          throw InputError("--degrade-cable", 0, "expected a width like 1x or 2x in '" + arg + "'");
        }
      }
      const std::string speed = x == std::string::npos ? link : link.substr(x + 1);
      if (!speed.empty()) {
        d.speed = parse_link_speed(speed);
        if (d.speed == LinkSpeed::Unknown) throw InputError("--degrade-cable", 0, "expected a speed SDR..XDR in '" + arg + "'");
      }
    }
    faults.degrade_cables.push_back(d);
  }
  return faults;
}

}  // namespace slurmtopo
