#include "simulate/whatif/whatif_edits.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <charconv>

#include "base/input_error.h"
#include "graph/slurm_tree.h"

namespace slurmtopo {

namespace {

// A switch by the name inspect prints, or its GUID as ibnetdiscover prints it (0x…).
const SwitchInfo* switch_named(const Cluster& c, const std::string& name) {
  for (const SwitchInfo& s : c.switches)
    if (s.name == name) return &s;
  if (name.size() > 2 && (name.rfind("0x", 0) == 0 || name.rfind("0X", 0) == 0)) {
    uint64_t guid = 0;
    const auto [end, ec] = std::from_chars(name.data() + 2, name.data() + name.size(), guid, 16);
    if (ec == std::errc() && end == name.data() + name.size())
      for (const SwitchInfo& s : c.switches)
        if (s.guid == guid) return &s;
  }
  return nullptr;
}

// Every name slurmtopo prints for switches: a switch (name or GUID), or a switch of the
// topology.conf it writes, which may stand for several (a unit's leaves "A09-P1-IBLEAF-x-03",
// a spine group "P1-IBSPINE"): then all the fabric switches it stands for.
std::vector<const SwitchInfo*> switches_named(const Cluster& c, const std::string& name, const char* option) {
  if (const SwitchInfo* s = switch_named(c, name)) return {s};
  for (const SlurmSwitch& t : build_slurm_tree(c).switches) {
    if (t.name != name || t.members.empty()) continue;
    std::vector<const SwitchInfo*> out;
    for (const auto& m : t.members)
      if (const SwitchInfo* s = switch_named(c, m)) out.push_back(s);
    if (!out.empty()) return out;
  }
  throw InputError(option, 0, "no switch named '" + name +
                                  "' (a switch or GUID as `slurmtopo inspect` prints them, or a SwitchName= of the "
                                  "topology.conf `slurmtopo emit topology` writes)");
}

const SwitchInfo& find_switch(const Cluster& c, const std::string& name, const char* option) {
  const std::vector<const SwitchInfo*> found = switches_named(c, name, option);
  if (found.size() == 1) return *found.front();
  std::string members;
  for (const SwitchInfo* s : found) members += (members.empty() ? "" : ", ") + s->name;
  throw InputError(option, 0, "'" + name + "' stands for " + std::to_string(found.size()) + " switches (" + members +
                                  "): name the one the cable is on");
}

bool touches(const Link& l, uint64_t guid) { return l.a.guid == guid || l.b.guid == guid; }

void drop_uncabled(Fabric& f) {
  std::set<uint64_t> cabled;
  for (const Link& l : f.links) cabled.insert({l.a.guid, l.b.guid});
  std::erase_if(f.nodes, [&](const FabricNode& n) { return !cabled.count(n.guid); });
}

// The highest cabled port of every node, in one pass over the cables.
std::unordered_map<uint64_t, int> last_ports(const Fabric& f) {
  std::unordered_map<uint64_t, int> last;
  for (const Link& l : f.links)
    for (const LinkEnd& end : {l.a, l.b}) last[end.guid] = std::max(last[end.guid], end.port);
  return last;
}

// Each new spine copies a top-level switch (the first, second, ... in name order, round robin)
// and is cabled once to every switch one level down that its model reaches: on a 2-level
// tree every leaf, on a 3-level tree the model's core group, on a rail-optimized fabric the
// model's rail plane.
void add_spines(const Cluster& c, std::vector<Fabric>& fabrics, int count, std::vector<std::string>& notes) {
  int top_level = 0;
  for (const SwitchInfo& s : c.switches)
    if (s.role == SwitchRole::Upper) top_level = std::max(top_level, s.level);
  if (top_level == 0) throw InputError("--add-spines", 0, "the fabric has no switches above its leaves to add to");
  std::vector<const SwitchInfo*> tops;
  std::unordered_map<uint64_t, const SwitchInfo*> by_guid;
  for (const SwitchInfo& s : c.switches) {
    by_guid[s.guid] = &s;
    if (s.level == top_level && s.role == SwitchRole::Upper && (tops.empty() || s.fabric == tops.front()->fabric))
      tops.push_back(&s);
  }
  Fabric& f = fabrics[tops.front()->fabric];
  uint64_t guid = 0;
  uint16_t lid = 0;
  for (const auto& fab : fabrics)
    for (const FabricNode& n : fab.nodes) {
      guid = std::max(guid, n.guid);
      lid = std::max(lid, n.lid);
    }
  std::unordered_map<uint64_t, int> next = last_ports(f);  // last used port, then last given
  std::vector<FabricNode> added;
  std::vector<Link> cables;
  std::vector<std::string> full;  // switches without a free port for a new uplink
  for (int k = 1; k <= count; ++k) {
    const SwitchInfo* model = tops[(k - 1) % tops.size()];
    std::vector<const SwitchInfo*> below;
    Link proto;  // the cable type of the model's downlinks
    for (const Link& l : f.links) {
      if (!touches(l, model->guid)) continue;
      auto it = by_guid.find(l.a.guid == model->guid ? l.b.guid : l.a.guid);
      if (it == by_guid.end() || it->second->level != top_level - 1) continue;
      if (std::find(below.begin(), below.end(), it->second) == below.end()) below.push_back(it->second);
      proto = l;
    }
    FabricNode n = *f.find(model->guid);
    n.guid = guid + static_cast<uint64_t>(k);
    n.sysimgguid = n.guid;
    n.lid = lid + k <= 49151 ? static_cast<uint16_t>(lid + k) : 0;
    n.description = "whatif-spine" + std::string(k < 10 ? "0" : "") + std::to_string(k);
    n.num_ports = std::max(n.num_ports, static_cast<int>(below.size()));
    int port = 0;
    for (const SwitchInfo* low : below) {
      Link l;
      l.a.guid = low->guid;
      l.a.port = ++next[low->guid];
      l.b = {n.guid, ++port, 0, 0};
      l.width = proto.width;
      l.speed = proto.speed;
      const FabricNode* low_node = f.find(low->guid);
      if (low_node && l.a.port > low_node->num_ports &&
          std::find(full.begin(), full.end(), low->name) == full.end())
        full.push_back(low->name);
      cables.push_back(l);
    }
    added.push_back(n);
  }
  if (!full.empty())
    notes.push_back(std::to_string(full.size()) + " switch" + (full.size() > 1 ? "es" : "") +
                    " below the new spines had no free port (first: " + full.front() +
                    "): their port counts are raised, as if they had the ports");
  for (Link& l : cables) {
    if (std::pair(l.b.guid, l.b.port) < std::pair(l.a.guid, l.a.port)) std::swap(l.a, l.b);
    f.links.push_back(l);
  }
  std::unordered_map<uint64_t, int> used;
  for (const Link& l : cables)
    for (const LinkEnd& end : {l.a, l.b}) used[end.guid] = std::max(used[end.guid], end.port);
  for (FabricNode& node : f.nodes)
    if (auto it = used.find(node.guid); it != used.end()) node.num_ports = std::max(node.num_ports, it->second);
  f.nodes.insert(f.nodes.end(), added.begin(), added.end());
  normalize(f);
}

}  // namespace

CableRef parse_cable_ref(const std::string& text) {
  CableRef r;
  const size_t comma = text.find(','), slash = text.rfind('/');
  if (comma != std::string::npos) {
    r.a = text.substr(0, comma);
    r.b = text.substr(comma + 1);
  } else if (slash != std::string::npos) {
    r.a = text.substr(0, slash);
    const std::string port = text.substr(slash + 1);
    if (port.empty() || port.size() > 4 || port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) == 0)
      throw InputError("--remove-cable", 0, "expected SWITCH/PORT with a port number of 1 or more, got '" + text + "'");
    r.port = std::stoi(port);
  }
  if (r.a.empty() || (r.port == 0 && r.b.empty()))
    throw InputError("--remove-cable", 0, "expected SWITCH/PORT or SWITCH_A,SWITCH_B, got '" + text + "'");
  return r;
}

std::vector<std::string> describe(const WhatifEdits& e) {
  std::vector<std::string> out;
  if (!e.drain.empty()) out.push_back("drain " + std::to_string(e.drain.size()) + (e.drain.size() > 1 ? " nodes" : " node"));
  for (const auto& s : e.drain_switches) out.push_back("take switch " + s + " out of service");
  for (const auto& c : e.remove_cables)
    out.push_back("remove the cable " + (c.port ? c.a + " port " + std::to_string(c.port) : "between " + c.a + " and " + c.b));
  for (const auto& c : e.errored_cables) out.push_back("remove the erroring cable " + c.cable + " (cable-errors: " + c.why + ")");
  if (e.add_spines) out.push_back("add " + std::to_string(e.add_spines) + " spine" + (e.add_spines > 1 ? "s" : ""));
  if (!e.topology_file.empty()) out.push_back("place with " + e.topology_file);
  return out;
}

EditedFabrics edit_fabrics(const Cluster& cluster, const WhatifEdits& edits) {
  EditedFabrics out{cluster.fabrics, {}, {}};
  std::set<std::string> cut;
  auto note_cut = [&](const Link& l) {
    for (const Hca& h : cluster.hcas)
      if (!h.host.empty() && (h.guid == l.a.guid || h.guid == l.b.guid)) cut.insert(h.host);
  };
  for (const auto& name : edits.drain_switches)
    for (const SwitchInfo* s : switches_named(cluster, name, "--drain-switch"))
      std::erase_if(out.fabrics[s->fabric].links, [&](const Link& l) {
        if (!touches(l, s->guid)) return false;
        note_cut(l);
        return true;
      });
  for (const CableRef& c : edits.remove_cables) {
    const SwitchInfo& a = find_switch(cluster, c.a, "--remove-cable");
    auto& links = out.fabrics[a.fabric].links;
    auto it = links.end();
    if (c.port) {
      it = std::find_if(links.begin(), links.end(), [&](const Link& l) {
        return (l.a.guid == a.guid && l.a.port == c.port) || (l.b.guid == a.guid && l.b.port == c.port);
      });
      if (it == links.end())
        throw InputError("--remove-cable", 0, "no cable on " + c.a + " port " + std::to_string(c.port));
    } else {
      const SwitchInfo& b = find_switch(cluster, c.b, "--remove-cable");
      it = std::find_if(links.begin(), links.end(), [&](const Link& l) {
        return (l.a.guid == a.guid && l.b.guid == b.guid) || (l.a.guid == b.guid && l.b.guid == a.guid);
      });
      if (it == links.end()) throw InputError("--remove-cable", 0, "no cable between " + c.a + " and " + c.b);
    }
    note_cut(*it);
    links.erase(it);
  }
  // After the named edits, so that naming a bad cable too, or draining its switch, is no error.
  for (const ErroredCable& c : edits.errored_cables) {
    auto& links = out.fabrics[c.fabric].links;
    const auto it = std::find_if(links.begin(), links.end(), [&](const Link& l) {
      return (l.a.guid == c.guid && l.a.port == c.port) || (l.b.guid == c.guid && l.b.port == c.port);
    });
    if (it == links.end()) continue;
    note_cut(*it);
    links.erase(it);
  }
  if (edits.add_spines > 0) add_spines(cluster, out.fabrics, edits.add_spines, out.notes);
  for (Fabric& f : out.fabrics) drop_uncabled(f);
  out.hosts_cut.assign(cut.begin(), cut.end());
  return out;
}

}  // namespace slurmtopo
