#include "graph/input_match.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/text.h"
#include "graph/cluster.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

const FindingKind& finding_kind(InputFinding::Kind kind) { return kInputFindingKinds[static_cast<size_t>(kind)]; }
const char* to_string(InputFinding::Kind kind) { return finding_kind(kind).name; }

namespace {

std::vector<std::string> fabric_hosts(const Cluster& c) {
  std::vector<std::string> out;
  for (const Host& h : c.hosts) out.push_back(h.name);
  return out;
}

}  // namespace

std::optional<InputFinding> match_slurm_nodes(const Cluster& c, const std::vector<std::string>& slurm_nodes,
                                              const std::string& source, const HcaGuesses& guesses, bool places) {
  std::vector<std::string> missing;
  for (const std::string& n : slurm_nodes) {
    const int h = c.host_index(n);
    if (h < 0 || c.hosts[h].group < 0 || c.hosts[h].role == HostRole::Unplaced) missing.push_back(n);
  }
  if (missing.empty()) return std::nullopt;
  const int count = static_cast<int>(missing.size());
  if (missing.size() == slurm_nodes.size() && !c.hosts.empty())
    return InputFinding{InputFinding::Kind::SlurmNotThisCluster, compress_hostlist(missing),
                        "none of " + source + "'s " + counted(slurm_nodes.size(), "node", "nodes") +
                            " is a host of the fabric, whose " + counted(c.hosts.size(), "host is ", "hosts are ") +
                            compress_hostlist(fabric_hosts(c)) + ": another cluster's node list?",
                        count};
  std::map<std::string, std::string> guessed;
  for (const HostGuess& g : guesses_by_host(c, guesses)) guessed[g.host] = g.places;
  std::vector<std::string> likely, likely_names, nowhere;
  for (const std::string& n : missing) {
    auto it = guessed.find(n);
    if (it == guessed.end()) nowhere.push_back(n);
    else likely.push_back(n + " (" + it->second + ")"), likely_names.push_back(n);
  }
  std::string detail = std::to_string(missing.size()) + " of " + source + "'s " + std::to_string(slurm_nodes.size()) +
                       (missing.size() == 1 ? " nodes has" : " nodes have") +
                       " no named HCA on a leaf of the fabric: they are under no switch, and the tree plugin can "
                       "never place them.";
  if (!likely.empty()) {
    std::string list;
    if (places)
      for (const std::string& l : likely) list += (list.empty() ? "" : "; ") + l;
    else
      list = compress_hostlist(likely_names);
    detail += " " + std::to_string(likely.size()) + " of them likely own unnamed HCAs of the fabric: " + list +
              " (`slurmtopo inspect` shows where; `--suggest-map FILE` writes them as a node-name-map to review and "
              "pass back).";
  }
  if (!nowhere.empty())
    detail += " " + (likely.empty() ? std::string("They show") : std::to_string(nowhere.size()) + " show") +
              " nowhere in the fabric (down, or not cabled?)" +
              (likely.empty() ? "" : ": " + compress_hostlist(nowhere)) + ".";
  return InputFinding{InputFinding::Kind::SlurmNodesNotInFabric, compress_hostlist(missing), std::move(detail), count};
}

std::optional<InputFinding> match_topology_nodes(const Cluster& c, const std::vector<std::string>& nodes,
                                                 const std::string& source) {
  if (nodes.empty() || c.hosts.empty()) return std::nullopt;
  for (const std::string& n : nodes)
    if (c.host_index(n) >= 0) return std::nullopt;
  return InputFinding{InputFinding::Kind::TopologyNotThisCluster, source,
                      source + " lists " + counted(nodes.size(), "node", "nodes") + " (" + compress_hostlist(nodes) +
                          "), none of them a host of the fabric, whose " +
                          counted(c.hosts.size(), "host is ", "hosts are ") + compress_hostlist(fabric_hosts(c)) +
                          ": the topology of another cluster?",
                      static_cast<int>(nodes.size())};
}

}  // namespace slurmtopo
