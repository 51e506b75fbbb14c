#include "report/inspect.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/text.h"
#include "base/json_fields.h"
#include "base/version.h"
#include "discover/device_ids.h"
#include "graph/link_health.h"
#include "graph/link_ceilings.h"
#include "report/anomaly_summary.h"
#include "report/cabling_plan_summary.h"
#include "report/port_counters_json.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {
struct FabricCounts { int switches = 0, cas = 0, routers = 0, aggregation = 0; };

FabricCounts count(const Fabric& f) {
  FabricCounts c;
  for (const auto& n : f.nodes) {
    if (n.kind == NodeKind::Switch) ++c.switches;
    else if (n.kind == NodeKind::Router) ++c.routers;
    else ++c.cas;
    if (n.kind == NodeKind::Ca && n.description.find("Aggregation Node") != std::string::npos) ++c.aggregation;
  }
  return c;
}

std::string hostlist_of(const Cluster& c, const std::vector<int>& hosts) {
  std::vector<std::string> names;
  for (int h : hosts) names.push_back(c.hosts[h].name);
  return compress_hostlist(std::move(names));
}

// rail → leaves its HCAs land on, over all hosts.
std::map<int, std::set<std::string>> rail_leaves(const Cluster& c) {
  std::map<int, std::set<std::string>> out;
  for (const auto& h : c.hosts)
    for (int i : h.hcas)
      if (c.hcas[i].position >= 0)
        for (int s : c.hcas[i].switches) out[c.hcas[i].position].insert(c.switches[s].name);
  return out;
}

std::vector<std::string> hosts_of_role(const Cluster& c, HostRole role) {
  std::vector<std::string> out;
  for (const auto& h : c.hosts)
    if (h.role == role) out.push_back(h.name);
  return out;
}

std::map<int, int> switches_per_level(const Cluster& c) {
  std::map<int, int> out;
  for (const auto& s : c.switches) ++out[s.level];
  return out;
}

// Director switches: modules (line and spine boards) that share one system image GUID.
std::map<uint64_t, std::vector<std::string>> chassis(const Cluster& c) {
  std::map<uint64_t, std::vector<std::string>> by_image;
  for (const auto& s : c.switches)
    if (uint64_t image = c.fabrics[s.fabric].find(s.guid)->sysimgguid) by_image[image].push_back(s.name);
  std::erase_if(by_image, [](const auto& kv) { return kv.second.size() < 2; });
  return by_image;  // names already in the switches' natural order
}

// "vendor 0x0008f1 device 0x5a5a (9 nodes), no device id (208 nodes)"
std::string unknown_devices_text(const Cluster& c) {
  std::string out;
  for (const auto& u : c.unknown_devices)
    out += (out.empty() ? "" : ", ") + device_label(u.vendor_id, u.device_id) + " (" + counted(u.nodes, "node", "nodes") + ")";
  return out;
}

int unresolved_count(const Cluster& c) {
  int n = 0;
  for (const auto& h : c.hcas) n += !h.unresolved.empty();
  return n;
}
}  // namespace

std::string inspect_text(const Cluster& c) {
  std::ostringstream out;
  for (const auto& f : c.fabrics) {
    FabricCounts n = count(f);
    out << "fabric " << f.name << " (" << f.source << "): " << counted(n.switches, "switch", "switches") << ", " << counted(n.cas, "CA", "CAs");
    if (n.aggregation) out << " (" << counted(n.aggregation, "SHARP aggregation node", "SHARP aggregation nodes") << ")";
    if (n.routers) out << ", " << n.routers << " routers";
    out << ", " << counted(f.links.size(), "cable", "cables") << "\n";
  }
  // Said outright: joined planes are one cluster to Slurm (one root), unlike separate fabrics.
  for (const auto& plane : c.planes) {
    out << "rail planes joined (the same hosts on each, one cluster):";
    for (size_t i = 0; i < plane.size(); ++i) out << (i ? " + " : " ") << c.fabrics[plane[i]].name;
    out << "\n";
  }
  out << "switches by level:";
  for (auto [level, n] : switches_per_level(c))
    out << "  " << (level == 0 ? std::string("off-path") : level == 1 ? std::string("leaf") : "L" + std::to_string(level))
        << " " << n;
  out << "\n";
  for (const auto& [image, modules] : chassis(c)) {
    out << "chassis 0x" << guid_hex(image) << ":";
    for (const auto& m : modules) out << " " << m;
    out << "\n";
  }
  int grouped = 0;
  for (const auto& h : c.hosts) grouped += h.group >= 0;
  if (!c.name_map.source.empty())
    out << "name map " << c.name_map.source << ": " << counted(c.name_map.entries, "entry", "entries") << ", "
        << c.name_map.matched << " in the fabric, " << counted(c.name_map.unknown(), "unknown GUID", "unknown GUIDs")
        << (c.name_map.matched == 0 && c.name_map.entries > 0 ? " (matches nothing: a map of another fabric?)" : "")
        << "\n";
  out << "hosts: " << grouped << " in " << counted(c.groups.size(), "group", "groups") << "; "
      << counted(unresolved_count(c), "HCA", "HCAs") << " unresolved\n";
  if (c.rails.size() > 1) {
    out << "rails (by position in the unit):\n";
    for (const auto& [rail, leaves] : rail_leaves(c)) {
      const Rail& r = c.rails[rail];
      out << "  " << r.name;
      if (!r.hca_names.empty()) out << " (" << join_list(r.hca_names) << ")";
      out << ": " << counted(leaves.size(), "leaf", "leaves") << (r.side ? ", side rail (storage?)" : "") << "\n";
    }
  }
  if (const auto storage = hosts_of_role(c, HostRole::Storage); !storage.empty())
    out << "storage hosts (HCAs on side rails only, or a lone HCA on a storage leaf; left out of topology.conf "
           "unless Slurm names them): "
        << compress_hostlist(storage) << "\n";
  if (const auto service = hosts_of_role(c, HostRole::Service); !service.empty())
    out << "service hosts (at most half their unit's rails, named unlike its hosts; left out of topology.conf "
           "unless Slurm names them): "
        << compress_hostlist(service) << "\n";
  if (const auto unplaced = hosts_of_role(c, HostRole::Unplaced); !unplaced.empty())
    out << "unplaced hosts (only their storage HCA is named; their compute HCAs are likely among the unnamed): "
        << compress_hostlist(unplaced) << "\n";
  out << "groups (what Slurm sees as leaf switches):\n";
  for (const auto& g : c.groups) {
    out << "  " << g.name << ": " << counted(g.hosts.size(), "host", "hosts") << " " << hostlist_of(c, g.hosts);
    if (g.leaves.size() > 1) out << " over " << g.leaves.size() << " leaves";
    out << "\n";
  }
  if (!c.guesses.guesses.empty()) {
    const std::vector<HostGuess> hosts = guesses_by_host(c, c.guesses);
    out << "likely hosts of unnamed HCAs: " << c.guesses.guesses.size() << " of " << c.guesses.unresolved
        << " on leaves, " << counted(hosts.size(), "host", "hosts")
        << " (inspect --suggest-map FILE writes them as a node-name-map to review and pass back):\n";
    for (const HostGuess& h : hosts) out << "  " << h.host << ": " << h.places << "\n";
  }
  if (!c.link_rates.empty()) {
    // What each rate is set by: a slower end's best (mixed generations) is no fault.
    out << "link rates (cables by rate, and what sets it):\n";
    for (const auto& r : c.link_rates)
      out << "  " << (c.fabrics.size() > 1 ? c.fabrics[r.fabric].name + ": " : "") << counted(r.cables, "cable", "cables")
          << " " << rate_text(r.width, r.speed) << ": " << r.why << "\n";
    if (!c.unknown_devices.empty())
      out << "  info: device ids with no known best rate (their cables judged against their peers): "
          << unknown_devices_text(c) << "\n";
  }
  for (const CounterSource& s : c.counter_sources) out << counter_source_summary(s) << "\n";
  for (const PlanSummary& s : c.plan_checks) out << plan_summary_line(s) << "\n";
  write_anomaly_summary(out, "anomalies", c.anomalies);
  return out.str();
}

std::string inspect_json(const Cluster& c) {
  using json = nlohmann::ordered_json;
  json j;
  j[kSlurmtopoVersionKey] = slurmtopo_version();
  j["fabrics"] = json::array();
  for (const auto& f : c.fabrics) {
    FabricCounts n = count(f);
    j["fabrics"].push_back({{"name", f.name}, {"source", f.source}, {"switches", n.switches},
                            {"cas", n.cas}, {"aggregation_nodes", n.aggregation}, {"routers", n.routers},
                            {"cables", f.links.size()}, {"partial", f.partial}});
  }
  j["planes"] = json::array();  // fabric names, per set of fabrics joined as rail planes
  for (const auto& plane : c.planes) {
    json names = json::array();
    for (int f : plane) names.push_back(c.fabrics[f].name);
    j["planes"].push_back(std::move(names));
  }
  json levels = json::object();
  for (auto [level, n] : switches_per_level(c)) levels[std::to_string(level)] = n;
  j["switches_by_level"] = levels;
  j["chassis"] = json::array();
  for (const auto& [image, modules] : chassis(c))
    j["chassis"].push_back({{"sysimgguid", "0x" + guid_hex(image)}, {"modules", modules}});
  j["switches"] = json::array();
  for (const auto& s : c.switches)
    j["switches"].push_back({{"name", s.name}, {"guid", "0x" + guid_hex(s.guid)}, {"fabric", c.fabrics[s.fabric].name},
                             {"role", to_string(s.role)}, {"level", s.level}, {"host_ports", s.host_ports},
                             {"uplinks", s.uplinks}});
  int grouped = 0;
  for (const auto& h : c.hosts) grouped += h.group >= 0;
  j["hosts"] = grouped;
  j["unresolved_hcas"] = unresolved_count(c);
  if (!c.name_map.source.empty())
    j["name_map"] = {{"source", c.name_map.source}, {"entries", c.name_map.entries},
                     {"matched", c.name_map.matched}, {"unknown_guids", c.name_map.unknown()}};
  j["unresolved"] = json::array();
  for (const auto& h : c.hcas) {
    if (h.unresolved.empty()) continue;
    json at = json::array();
    for (size_t k = 0; k < h.switches.size(); ++k)
      at.push_back({{"switch", c.switches[h.switches[k]].name}, {"port", h.ports[k]}});
    j["unresolved"].push_back({{"guid", "0x" + guid_hex(h.guid)}, {"fabric", c.fabrics[h.fabric].name},
                               {"description", h.description}, {"reason", h.unresolved}, {"cabled_to", at}});
  }
  j["groups"] = json::array();
  for (const auto& g : c.groups) {
    json leaves = json::array();
    for (int s : g.leaves) leaves.push_back(c.switches[s].name);
    j["groups"].push_back({{"name", g.name}, {"fabric", c.fabrics[g.fabric].name}, {"leaves", leaves},
                           {"hosts", g.hosts.size()}, {"nodes", hostlist_of(c, g.hosts)}});
  }
  j["rails"] = json::array();
  for (const auto& [rail, leaves] : rail_leaves(c))
    j["rails"].push_back({{"name", c.rails[rail].name}, {"hca_names", c.rails[rail].hca_names},
                          {"side", c.rails[rail].side},
                          {"leaves", std::vector<std::string>(leaves.begin(), leaves.end())}});
  j["storage_hosts"] = hosts_of_role(c, HostRole::Storage);
  j["service_hosts"] = hosts_of_role(c, HostRole::Service);
  j["unplaced_hosts"] = hosts_of_role(c, HostRole::Unplaced);
  j["likely_hosts"] = json::array();  // of unresolved HCAs, from their ports: suggestions only
  for (const HcaGuess& g : c.guesses.guesses)
    j["likely_hosts"].push_back({{"guid", "0x" + guid_hex(c.hcas[g.hca].guid)}, {"host", g.host}, {"hca", g.name},
                                 {"switch", g.leaf}, {"port", g.port}, {"why", g.why}});
  j["link_rates"] = json::array();
  for (const auto& r : c.link_rates)
    j["link_rates"].push_back({{"fabric", c.fabrics[r.fabric].name}, {"rate", rate_text(r.width, r.speed)},
                               {"width", r.width}, {"speed", to_string(r.speed)}, {"cables", r.cables}, {"why", r.why}});
  j["unknown_devices"] = json::array();
  for (const auto& u : c.unknown_devices)
    j["unknown_devices"].push_back({{"vendor_id", u.vendor_id}, {"device_id", u.device_id},
                                    {"label", device_label(u.vendor_id, u.device_id)}, {"nodes", u.nodes}});
  std::vector<std::string> fabric_names;
  for (const auto& f : c.fabrics) fabric_names.push_back(f.name);
  add_port_counters_json(j, c.counter_sources, c.cable_health, fabric_names);
  add_plans_json(j, c.plan_checks);
  j["anomalies"] = json::array();
  for (const auto& a : c.anomalies)
    j["anomalies"].push_back({{"kind", to_string(a.kind)},
                              {"check", finding_kind(a.kind).check},
                              {"severity", to_string(finding_kind(a.kind).severity)},
                              {"subject", a.subject},
                              {"detail", a.detail},
                              {"count", a.count}});
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace slurmtopo
