#include "report/node_join_report.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "report/anomaly_summary.h"
#include "report/inspect.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

std::string leaves_text(const GpuPath& p, bool joined) {
  if (!joined) return "-";
  if (p.leaves.empty()) return p.nic < 0 ? "-" : "(not in fabric)";
  std::string s;
  for (const auto& l : p.leaves) s += (s.empty() ? "" : ",") + l;
  return s;
}

std::string class_summary(const NodeInventory& n) {
  std::ostringstream s;
  s << n.gpus.size() << " GPU" << (n.gpus.size() == 1 ? "" : "s");
  if (!n.gpus.empty() && !n.gpus.front().slurm_type.empty()) s << " " << n.gpus.front().slurm_type;
  s << ", " << n.nics.size() << " RDMA NIC" << (n.nics.size() == 1 ? "" : "s") << ", " << n.sockets << " x "
    << n.cores_per_socket << " cores x " << n.threads_per_core << " threads, " << n.memory_mib / 1024 << " GiB";
  return s.str();
}

}  // namespace

std::string node_join_text(const NodeSet& nodes, const NodeJoin& join) {
  std::ostringstream out;
  out << "nodes: " << nodes.nodes.size() << " host" << (nodes.nodes.size() == 1 ? "" : "s") << " in "
      << nodes.classes.size() << " class" << (nodes.classes.size() == 1 ? "" : "es")
      << (join.joined ? ", joined to the fabric by NIC GUID" : "") << "\n";
  std::unordered_map<std::string, size_t> join_of;
  for (size_t i = 0; i < join.hosts.size(); ++i) join_of[nodes.nodes[join.hosts[i].node].hostname] = i;
  for (const NodeClass& c : nodes.classes) {
    out << "class " << c.hostlist << ": " << class_summary(nodes.nodes[c.representative]) << "\n";
    if (nodes.nodes[c.representative].gpus.empty()) continue;
    // (gpu, nic, path, rail, leaf) → hosts, in the order rows first appear (GPU-major below).
    using Row = std::vector<std::string>;
    std::map<std::pair<int, Row>, std::vector<std::string>> rows;
    for (const auto& name : c.hosts) {
      auto it = join_of.find(name);
      if (it == join_of.end()) continue;
      for (const GpuPath& p : join.hosts[it->second].gpus) {
        Row r{p.nic_name.empty() ? "-" : p.nic_name, to_string(p.path), join.joined && !p.rail.empty() ? p.rail : "-",
              leaves_text(p, join.joined)};
        rows[{p.gpu, r}].push_back(name);
      }
    }
    std::vector<std::pair<std::pair<int, Row>, std::string>> table;
    for (auto& [key, hosts] : rows) table.push_back({key, compress_hostlist(hosts)});
    // Within a GPU, rows by their first host (su1 before su2), not by leaf name.
    std::stable_sort(table.begin(), table.end(), [&](const auto& a, const auto& b) {
      if (a.first.first != b.first.first) return a.first.first < b.first.first;
      return natural_less(rows[a.first].front(), rows[b.first].front());
    });
    Row header{"gpu", "nic", "path", "rail", "leaf", "hosts"};
    std::vector<size_t> width(header.size());
    for (size_t k = 0; k < header.size(); ++k) width[k] = header[k].size();
    for (const auto& [key, hosts] : table) {
      width[0] = std::max(width[0], std::to_string(key.first).size());
      for (size_t k = 0; k < 4; ++k) width[k + 1] = std::max(width[k + 1], key.second[k].size());
    }
    auto print = [&](const Row& r) {
      out << " ";
      for (size_t k = 0; k < r.size(); ++k) {
        out << " " << r[k];
        if (k + 1 < r.size()) out << std::string(width[k] - r[k].size() + 1, ' ');
      }
      out << "\n";
    };
    print(header);
    for (const auto& [key, hosts] : table) {
      Row r{std::to_string(key.first)};
      r.insert(r.end(), key.second.begin(), key.second.end());
      r.push_back(hosts);
      print(r);
    }
  }
  write_anomaly_summary(out, "node anomalies", join.anomalies);
  for (const auto& w : nodes.warnings) out << "  warning: " << w << "\n";
  return out.str();
}

std::string inspect_json_with_nodes(const std::string& inspect_json, const NodeSet& nodes, const NodeJoin& join) {
  using json = nlohmann::ordered_json;
  json j = json::parse(inspect_json);
  json n;
  n["classes"] = json::array();
  for (const NodeClass& c : nodes.classes)
    n["classes"].push_back({{"hosts", c.hostlist}, {"signature", c.signature}});
  n["hosts"] = json::array();
  for (const HostJoin& h : join.hosts) {
    const NodeInventory& inv = nodes.nodes[h.node];
    json gpus = json::array();
    for (const GpuPath& p : h.gpus) {
      json leaves = json::array();
      for (const auto& l : p.leaves) leaves.push_back(l);
      gpus.push_back({{"gpu", p.gpu}, {"pci_busid", inv.gpus[p.gpu].pci_busid},
                      {"nic", p.nic_name}, {"path", to_string(p.path)}, {"rail", p.rail}, {"leaves", leaves}});
    }
    n["hosts"].push_back({{"host", inv.hostname}, {"in_fabric", h.host >= 0}, {"gpus", gpus}});
  }
  n["anomalies"] = json::array();
  for (const auto& a : join.anomalies)
    n["anomalies"].push_back({{"kind", to_string(a.kind)}, {"subject", a.subject}, {"detail", a.detail}});
  n["warnings"] = nodes.warnings;
  j["nodes"] = n;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string inspect_report(const Cluster& cluster, const NodeSet* nodes, bool json) {
  if (!nodes) return json ? inspect_json(cluster) : inspect_text(cluster);
  const NodeJoin join = join_nodes(*nodes, &cluster);
  return json ? inspect_json_with_nodes(inspect_json(cluster), *nodes, join) : inspect_text(cluster) + node_join_text(*nodes, join);
}

}  // namespace slurmtopo
