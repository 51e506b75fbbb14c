#include "graph/node_join.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "base/text.h"
#include "graph/node_health.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

const FindingKind& finding_kind(NodeAnomaly::Kind kind) { return kNodeAnomalyKinds[static_cast<size_t>(kind)]; }
const char* to_string(NodeAnomaly::Kind kind) { return finding_kind(kind).name; }

std::string gpu_list(const std::vector<int>& gpus) {
  std::string out = gpus.size() == 1 ? "GPU " : "GPUs ";
  for (size_t i = 0; i < gpus.size(); ++i) out += (i ? "," : "") + std::to_string(gpus[i]);
  return out;
}

std::vector<NicChoice> nearest_nics(const NodeInventory& node) {
  std::vector<int> uses(node.nics.size(), 0);
  std::vector<NicChoice> out;
  out.reserve(node.gpus.size());
  for (size_t g = 0; g < node.gpus.size(); ++g) {
    const Gpu& gpu = node.gpus[g];
    NicChoice best;
    std::tuple<int, int, int, size_t> best_key{};
    for (size_t n = 0; n < node.nics.size(); ++n) {
      const RdmaNic& nic = node.nics[n];
      PathClass c = g < node.gpu_nic.size() && n < node.gpu_nic[g].size() ? node.gpu_nic[g][n] : PathClass::Unknown;
      int other_socket = gpu.socket >= 0 && nic.socket >= 0 && gpu.socket != nic.socket;
      std::tuple<int, int, int, size_t> key{static_cast<int>(c), other_socket, uses[n], n};
      if (best.nic < 0 || key < best_key) best = {static_cast<int>(n), c}, best_key = key;
    }
    if (best.nic >= 0) ++uses[best.nic];
    out.push_back(best);
  }
  return out;
}

namespace {

using Kind = NodeAnomaly::Kind;

// One finding about one host, before equal findings of many hosts are merged.
struct Finding {
  Kind kind;
  std::string host;
  std::string detail;
};


std::string guid_text(uint64_t guid) {
  static const char* hex = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 60; shift >= 0; shift -= 4) s += hex[(guid >> shift) & 0xf];
  return s;
}

bool close(PathClass c) { return c == PathClass::PIX || c == PathClass::PXB; }

// Only these are expected in an InfiniBand fabric (RoCE, EFA, Slingshot never are).
bool fabric_nic(const RdmaNic& nic) {
  return nic.node_guid != 0 && (nic.link_layer == "InfiniBand" || nic.link_layer.empty());
}

using GuidIndex = std::unordered_map<uint64_t, int>;  // NIC node GUID → Cluster::hcas index

void node_findings(const NodeInventory& n, const HostJoin& h, const GuidIndex* fabric, std::vector<Finding>& out) {
  if (n.gpus.empty()) return;
  if (n.nics.empty()) {
    out.push_back({Kind::NoCloseNic, n.hostname, "no RDMA NIC at all: GPU traffic to other nodes has no GPUDirect path"});
    return;
  }
  // GPUs without a NIC on their PCIe switch: their traffic crosses the host bridge (or the
  // socket link), the classic cause of one slow rank in an allreduce.
  std::vector<std::string> far;
  for (const GpuPath& p : h.gpus) {
    if (close(p.path)) continue;
    // Without PCI bridges in the export a PIX NIC looks like PHB: do not accuse it.
    if (n.pci_bridges_missing && p.path == PathClass::PHB) continue;
    far.push_back("GPU " + std::to_string(p.gpu) + " nearest is " + p.nic_name + " (" + to_string(p.path) + ")");
  }
  if (!far.empty()) out.push_back({Kind::NoCloseNic, n.hostname, "no NIC within PXB: " + join_list(far, "; ")});

  std::vector<std::vector<int>> users(n.nics.size());
  for (const GpuPath& p : h.gpus)
    if (p.nic >= 0) users[p.nic].push_back(p.gpu);
  auto in_fabric = [&](size_t k) { return fabric && fabric->count(n.nics[k].node_guid); };
  for (size_t k = 0; k < n.nics.size(); ++k) {
    if (users[k].size() < 2) continue;
    // An idle NIC counts only if it could carry the same traffic: same link layer, and in the
    // fabric when this one is (a storage NIC on another network is idle on purpose).
    std::vector<std::string> idle;
    for (size_t o = 0; o < n.nics.size(); ++o)
      if (users[o].empty() && n.nics[o].link_layer == n.nics[k].link_layer && (!in_fabric(k) || in_fabric(o)))
        idle.push_back(n.nics[o].name);
    if (!idle.empty())
      out.push_back({Kind::SharedNic, n.hostname,
                     gpu_list(users[k]) + " share " + n.nics[k].name + " while " + join_list(idle) + " carr" +
                         (idle.size() == 1 ? "ies" : "y") + " no GPU's traffic"});
  }

  std::vector<std::string> remote;
  for (const GpuPath& p : h.gpus) {
    if (p.nic < 0) continue;
    const Gpu& g = n.gpus[p.gpu];
    const RdmaNic& nic = n.nics[p.nic];
    if (g.socket >= 0 && nic.socket >= 0 && g.socket != nic.socket)
      remote.push_back("GPU " + std::to_string(p.gpu) + " (socket " + std::to_string(g.socket) + ") uses " +
                       nic.name + " (socket " + std::to_string(nic.socket) + ")");
  }
  if (!remote.empty()) out.push_back({Kind::RemoteNic, n.hostname, join_list(remote, "; ")});
}

void fabric_findings(const NodeInventory& n, const HostJoin& h, const Cluster& c, const GuidIndex& fabric,
                     std::vector<Finding>& out) {
  bool any_joined = std::any_of(h.gpus.begin(), h.gpus.end(), [](const GpuPath& p) { return p.hca >= 0; });
  bool any_expected = false;
  for (const RdmaNic& nic : n.nics) any_expected |= fabric_nic(nic);
  if (!any_expected) return;  // RoCE/EFA/Slingshot-only nodes: nothing to join
  if (!any_joined && h.host < 0 && !n.gpus.empty()) {
    out.push_back({Kind::NotInFabric, n.hostname, "host not in the fabric: no NIC GUID of it matches a fabric HCA"});
    return;
  }
  std::vector<std::string> missing;
  for (const GpuPath& p : h.gpus)
    if (p.nic >= 0 && p.hca < 0 && fabric_nic(n.nics[p.nic]))
      missing.push_back("GPU " + std::to_string(p.gpu) + "'s " + p.nic_name + " (" +
                        guid_text(n.nics[p.nic].node_guid) + ")");
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  if (!missing.empty())
    out.push_back({Kind::NotInFabric, n.hostname, join_list(missing) + " not in the fabric (uncabled, down, or another subnet)"});

  // The fabric's node description is the kernel's "<host> <device>" at sweep time: a
  // disagreement means the node file or the sweep is stale, or a file describes another host.
  for (const RdmaNic& nic : n.nics) {
    if (!fabric_nic(nic)) continue;
    auto found = fabric.find(nic.node_guid);
    if (found == fabric.end()) continue;
    const Hca* it = &c.hcas[found->second];
    if (it->host.empty()) continue;
    if (it->host != n.hostname)
      out.push_back({Kind::NicIdentity, n.hostname,
                     nic.name + " (" + guid_text(nic.node_guid) + ") belongs to " + it->host + " in the fabric"});
    else if (!it->rail.empty() && it->rail != nic.name)
      out.push_back({Kind::NicIdentity, n.hostname,
                     "hwloc's " + nic.name + " is " + it->rail + " in the fabric (" + guid_text(nic.node_guid) + ")"});
  }
}

// GPU-level rail view: GPU k of every host in a unit should reach the same leaf, since NCCL
// pairs GPU k with GPU k across nodes; a host where it does not forces that ring through the
// spines (a miscabled rail, or NICs whose order differs from the GPUs').
void rail_leaf_findings(const NodeSet& set, const NodeJoin& j, const Cluster& c, std::vector<Finding>& out) {
  std::unordered_map<int, size_t> join_of_host;
  for (size_t i = 0; i < j.hosts.size(); ++i)
    if (j.hosts[i].host >= 0) join_of_host[j.hosts[i].host] = i;
  for (const Group& g : c.groups) {
    std::vector<size_t> members;
    for (int h : g.hosts)
      if (auto it = join_of_host.find(h); it != join_of_host.end()) members.push_back(it->second);
    size_t gpus = 0;
    for (size_t m : members) gpus = std::max(gpus, j.hosts[m].gpus.size());
    for (size_t k = 0; k < gpus; ++k) {
      std::vector<size_t> who;
      std::vector<std::string> leaf;
      for (size_t m : members)
        if (k < j.hosts[m].gpus.size() && !j.hosts[m].gpus[k].leaves.empty())
          who.push_back(m), leaf.push_back(join_list(j.hosts[m].gpus[k].leaves));
      if (who.size() < 2) continue;
      int runner_up = 0;
      auto [usual, count] = usual_value(leaf, &runner_up);
      if (count == static_cast<int>(who.size())) continue;
      if (count == runner_up) {  // no majority: say so once for the unit, blame no host
        std::vector<std::string> names;
        for (size_t m : who) names.push_back(set.nodes[j.hosts[m].node].hostname);
        out.push_back({Kind::RailLeaf, compress_hostlist(names),
                       "GPU " + std::to_string(k) + " of the hosts of " + g.name + " lands on different leaves, none in most"});
        continue;
      }
      for (size_t i = 0; i < who.size(); ++i) {
        if (leaf[i] == usual) continue;
        const GpuPath& p = j.hosts[who[i]].gpus[k];
        out.push_back({Kind::RailLeaf, set.nodes[j.hosts[who[i]].node].hostname,
                       "GPU " + std::to_string(k) + " → " + p.nic_name + " (rail " + p.rail + ") → " + leaf[i] +
                           "; GPU " + std::to_string(k) + " of the other hosts of " + g.name + " → " + usual});
      }
    }
  }
}

std::string gpu_nic_text(const GpuPath& p) {
  return "GPU " + std::to_string(p.gpu) + "→" + (p.nic_name.empty() ? "none" : p.nic_name) + " " + to_string(p.path);
}

// One NodeName/gres.conf line and one NCCL_IB_HCA list serve a whole class; hosts whose
// GPU→NIC layout differs (NIC placement not in the hardware signature) are not described by
// them. NCCL_IB_HCA is a set (NCCL pairs each GPU with its nearest listed NIC itself), so a
// layout is the NIC count, each GPU's path class and the set of nearest NICs: hosts that only
// number their mlx5 devices in another order have one layout. The usual layout is the most
// common one, on a tie the class representative's (its first host), as emit nodes chooses
// the class's NCCL_IB_HCA list (emit/node_lines.h).
void class_layout_findings(const NodeSet& set, const NodeJoin& j, std::vector<Finding>& out) {
  std::unordered_map<std::string, size_t> join_of_name;
  for (size_t i = 0; i < j.hosts.size(); ++i) join_of_name[set.nodes[j.hosts[i].node].hostname] = i;
  for (const NodeClass& cls : set.classes) {
    if (cls.hosts.size() < 2) continue;
    std::vector<size_t> members;
    std::vector<std::string> layout;
    for (const auto& name : cls.hosts) {
      auto it = join_of_name.find(name);
      if (it == join_of_name.end()) continue;
      const HostJoin& h = j.hosts[it->second];
      std::string key = std::to_string(set.nodes[h.node].nics.size()) + " NICs;";
      std::set<std::string> nics;
      for (const GpuPath& p : h.gpus) {
        key += std::string(" ") + to_string(p.path);
        if (!p.nic_name.empty()) nics.insert(p.nic_name);
      }
      key += "; {" + join_list({nics.begin(), nics.end()}) + "}";
      members.push_back(it->second);
      layout.push_back(key);
    }
    if (members.empty()) continue;
    // Hosts in natural order: a tie goes to the layout whose first host comes first.
    std::map<std::string, int> counts;
    for (const auto& l : layout) ++counts[l];
    size_t first = 0;
    for (size_t i = 1; i < members.size(); ++i)
      if (counts[layout[i]] > counts[layout[first]]) first = i;
    const std::string usual = layout[first];
    if (counts[usual] == static_cast<int>(members.size())) continue;
    const HostJoin* model = &j.hosts[members[first]];
    const bool most = 2 * counts[usual] > static_cast<int>(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
      if (layout[i] == usual) continue;
      const HostJoin& h = j.hosts[members[i]];
      std::vector<std::string> mine, theirs;
      for (size_t k = 0; k < h.gpus.size() && k < model->gpus.size(); ++k)
        if (gpu_nic_text(h.gpus[k]) != gpu_nic_text(model->gpus[k]))
          mine.push_back(gpu_nic_text(h.gpus[k])), theirs.push_back(gpu_nic_text(model->gpus[k]));
      size_t nics = set.nodes[h.node].nics.size(), usual_nics = set.nodes[model->node].nics.size();
      if (nics != usual_nics)
        mine.push_back(std::to_string(nics) + " NICs"), theirs.push_back(std::to_string(usual_nics) + " NICs");
      const std::string whose = most ? "most of " + cls.hostlist + " have "
                                     : set.nodes[model->node].hostname + " has (no layout is most of " + cls.hostlist +
                                           "'s; the class follows its first host) ";
      out.push_back({Kind::ClassLayout, set.nodes[h.node].hostname,
                     join_list(mine) + " where " + whose + join_list(theirs) + ": the class's NCCL_IB_HCA list does not describe it"});
    }
  }
}

// Equal findings on many hosts become one line with a hostlist: 1,000 identical nodes with
// the same layout problem should read as one problem.
std::vector<NodeAnomaly> merge(std::vector<Finding> findings) {
  std::map<std::pair<Kind, std::string>, std::vector<std::string>> hosts;
  for (auto& f : findings) hosts[{f.kind, f.detail}].push_back(std::move(f.host));
  std::vector<NodeAnomaly> out;
  for (auto& [key, names] : hosts) {
    const int count = static_cast<int>(names.size());
    std::string subject = count == 1 ? names.front() : compress_hostlist(names);
    out.push_back({key.first, std::move(subject), key.second, count});
  }
  std::stable_sort(out.begin(), out.end(), [](const NodeAnomaly& a, const NodeAnomaly& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    return natural_less(a.subject, b.subject);
  });
  return out;
}

// Node files that share no host with the fabric (by name or NIC GUID) describe another
// cluster: one finding with the counts replaces every per-host "not in the fabric".
void foreign_nodes(const NodeSet& set, NodeJoin& j, const Cluster& c, const GuidIndex& fabric) {
  if (set.nodes.empty() || c.hcas.empty()) return;
  for (const HostJoin& h : j.hosts) {
    if (h.host >= 0) return;
    for (const RdmaNic& nic : set.nodes[h.node].nics)
      if (nic.node_guid && fabric.count(nic.node_guid)) return;
  }
  std::vector<std::string> ours, theirs;
  for (const NodeInventory& n : set.nodes) ours.push_back(n.hostname);
  for (const Host& h : c.hosts) theirs.push_back(h.name);
  std::erase_if(j.anomalies, [](const NodeAnomaly& a) { return a.kind == Kind::NotInFabric; });
  std::string detail = "none of the " + counted(ours.size(), "host", "hosts") +
                       " described is in the fabric (by name or NIC GUID); the fabric has " +
                       (theirs.empty() ? counted(c.hcas.size(), "HCA", "HCAs") + " and no named host"
                                       : counted(theirs.size(), "host", "hosts") + ": " + compress_hostlist(theirs)) +
                       ". Node files of another cluster?";
  j.anomalies.insert(j.anomalies.begin(),
                     {Kind::NotThisCluster, compress_hostlist(ours), std::move(detail), static_cast<int>(ours.size())});
}

}  // namespace

NodeJoin join_nodes(const NodeSet& set, const Cluster* cluster) {
  NodeJoin j;
  j.joined = cluster != nullptr;
  GuidIndex hca_of_guid;
  if (cluster)
    for (int i = 0; i < static_cast<int>(cluster->hcas.size()); ++i) hca_of_guid.emplace(cluster->hcas[i].guid, i);
  std::vector<Finding> findings;
  for (size_t i = 0; i < set.nodes.size(); ++i) {
    const NodeInventory& n = set.nodes[i];
    HostJoin h;
    h.node = i;
    h.host = cluster ? cluster->host_index(n.hostname) : -1;
    std::vector<NicChoice> choice = nearest_nics(n);
    for (size_t g = 0; g < n.gpus.size(); ++g) {
      GpuPath p;
      p.gpu = static_cast<int>(g);
      p.nic = choice[g].nic;
      p.path = choice[g].path;
      if (p.nic >= 0) {
        const RdmaNic& nic = n.nics[p.nic];
        p.nic_name = nic.name;
        if (auto it = hca_of_guid.find(nic.node_guid); nic.node_guid && it != hca_of_guid.end()) {
          const Hca& hca = cluster->hcas[it->second];
          p.hca = it->second;
          p.rail = hca.rail;
          for (int s : hca.switches)
            if (std::find(p.leaves.begin(), p.leaves.end(), cluster->switches[s].name) == p.leaves.end())
              p.leaves.push_back(cluster->switches[s].name);
        }
      }
      h.gpus.push_back(std::move(p));
    }
    node_findings(n, h, cluster ? &hca_of_guid : nullptr, findings);
    if (cluster) fabric_findings(n, h, *cluster, hca_of_guid, findings);
    j.hosts.push_back(std::move(h));
  }
  if (cluster) rail_leaf_findings(set, j, *cluster, findings);
  class_layout_findings(set, j, findings);
  for (HostFinding& f : node_health_findings(set, j)) findings.push_back({f.kind, std::move(f.host), std::move(f.detail)});
  j.anomalies = merge(std::move(findings));
  if (cluster) foreign_nodes(set, j, *cluster, hca_of_guid);
  return j;
}

}  // namespace slurmtopo
