#include "emit/block_plan.h"

#include <algorithm>
#include <map>

#include "base/input_error.h"
#include "base/text.h"
#include "slurm/hostlist.h"
#include "slurm/ranges.h"

namespace slurmtopo {

namespace {

constexpr size_t kMaxBlockLevels = 16;  // topology/block's MAX_BLOCK_LEVELS

bool holds(const std::vector<std::string>& sorted, const std::string& name) {
  return std::binary_search(sorted.begin(), sorted.end(), name,
                            [](const auto& a, const auto& b) { return natural_less(a, b); });
}

void sort_nodes(std::vector<std::string>& nodes) {
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
}

// "GPU 0-2 → X, GPU 3 → none"
std::string gpu_domains(const std::vector<GpuFabric>& gpus) {
  std::map<std::string, std::vector<int>> by;
  for (size_t i = 0; i < gpus.size(); ++i) by[gpus[i].domain()].push_back(static_cast<int>(i));
  std::string out;
  for (const auto& [d, idx] : by)
    out += (out.empty() ? "" : ", ") + std::string(idx.size() == 1 ? "GPU " : "GPUs ") + format_ranges(idx) + " → " +
           (d.empty() ? "none" : d);
  return out;
}

std::string where(const HostFabric& h) { return h.line ? h.file + ":" + std::to_string(h.line) : h.file; }

}  // namespace

std::vector<int> choose_block_sizes(const std::vector<int>& counts, SlurmRelease release, std::vector<std::string>& why) {
  if (counts.empty()) return {};
  if (release < introduced_in(TopologyForm::BlockSizes)) {
    why.push_back("no BlockSizes= (Slurm " + to_string(release) + " has none; 24.05 added it): every block is one base block");
    return {};
  }
  int base = *std::min_element(counts.begin(), counts.end());
  if (blocks_may_have_gaps(release)) {
    std::map<int, int> freq;
    for (int c : counts) ++freq[c];
    int best = 0;
    for (const auto& [size, n] : freq)
      if (n >= best) best = n, base = size;
    why.push_back("base block size " + std::to_string(base) + ": the most common block size (" +
                  std::to_string(best) + " of " + counted(counts.size(), "block", "blocks") +
                  "); 25.05+ lets a block have fewer nodes than the base");
  } else {
    why.push_back("base block size " + std::to_string(base) + ": the smallest block, since before 25.05 " +
                  "topology/block needs every block to have at least the base size of nodes");
  }
  std::vector<int> sizes;
  for (size_t blocks = 1; blocks <= counts.size() && sizes.size() < kMaxBlockLevels; blocks *= 2)
    sizes.push_back(base * static_cast<int>(blocks));
  if (sizes.size() > 1)
    why.push_back("then " + std::to_string(sizes.size() - 1) + " aggregation level" + (sizes.size() > 2 ? "s" : "") +
                  " of 2^k consecutive blocks (" + std::to_string(sizes.back() / base) + " blocks = " +
                  std::to_string(sizes.back()) + " nodes at most): a job larger than one block gets the smallest level that holds it");
  return sizes;
}

BlockPlan plan_blocks_from_domains(const NvlinkDomains& domains, const std::optional<std::vector<std::string>>& known,
                                   SlurmRelease release) {
  BlockPlan plan;
  plan.source = "NVLink domains (fabric ClusterUUID[.CliqueId]) from " + domains.source;
  std::vector<std::string> order;                      // domains as they first appear
  std::map<std::string, std::vector<std::string>> members;
  std::vector<std::string> listed;
  for (const HostFabric& h : domains.hosts) {
    if (known && !holds(*known, h.host))
      throw InputError(h.file, h.line, "host " + h.host + " is not a node of the cluster (neither in the fabric nor in --nodes/--slurm-conf)");
    listed.push_back(h.host);
    const std::vector<std::string> seen = h.domains();
    if (seen.empty() || (seen.size() == 1 && seen.front().empty())) {
      const std::string why = std::string(h.gpus.empty() ? "no GPUs report" : "its GPUs report") +
                              " no NVLink domain (" + where(h) + ")";
      plan.anomalies.push_back(h.host + ": " + why + "; in no block");
      plan.findings.push_back({DomainFindingKind::Unknown, h.host,
                               why + ": in no block; check the GPU fabric (nvidia-smi -q, Fabric: State, Status) and "
                                     "the NVLink switch trays"});
      continue;
    }
    if (seen.size() > 1) {
      const std::string why = "its GPUs disagree on the NVLink domain (" + gpu_domains(h.gpus) + ", " + where(h) + ")";
      plan.anomalies.push_back(h.host + ": " + why + "; in no block");
      plan.findings.push_back({DomainFindingKind::Unknown, h.host,
                               why + ": in no block; a GPU whose fabric did not come up reports another ClusterUUID"});
      continue;
    }
    if (!members.count(seen.front())) order.push_back(seen.front());
    members[seen.front()].push_back(h.host);
  }
  size_t largest = 0;
  for (const auto& [d, hosts] : members) largest = std::max(largest, hosts.size());
  for (const auto& d : order) {
    std::vector<std::string>& hosts = members[d];
    if (hosts.size() == 1 && largest > 1) {
      const std::string why = "alone in NVLink domain " + d + " where other domains have up to " +
                              std::to_string(largest) + " nodes (a GPU fabric fault or a mis-set ClusterUUID)";
      plan.anomalies.push_back(hosts.front() + ": " + why + "; in no block");
      plan.findings.push_back({DomainFindingKind::Alone, hosts.front(), why + ": in no block"});
      continue;
    }
    if (hosts.size() < largest) {
      sort_nodes(hosts);
      const size_t gone = largest - hosts.size();
      plan.findings.push_back(
          {DomainFindingKind::Short, "block_" + d,
           "NVLink domain " + d + " holds " + std::to_string(hosts.size()) + " nodes (" + compress_hostlist(hosts) +
               ") where the largest holds " + std::to_string(largest) + ": " + std::to_string(gone) +
               (gone == 1 ? " node is" : " nodes are") + " down, drained or on another ClusterUUID; a job of " +
               std::to_string(largest) + " nodes on one NVLink domain does not fit in it"});
    }
    sort_nodes(hosts);
    plan.blocks.blocks.push_back({0, "block_" + d, hosts});
  }
  if (known) {
    sort_nodes(listed);
    std::vector<std::string> missing;
    for (const auto& n : *known)
      if (!holds(listed, n)) missing.push_back(n);
    if (!missing.empty()) {
      plan.anomalies.push_back(compress_hostlist(missing) + ": not in " + domains.source + " (NVLink domain unknown); in no block");
      plan.findings.push_back({DomainFindingKind::Unknown, compress_hostlist(missing),
                               "not in " + domains.source + ": NVLink domain unknown, in no block (collect again, or "
                                                            "add the nodes to the file)",
                               static_cast<int>(missing.size())});
    }
  }
  std::vector<int> counts;
  for (const auto& b : plan.blocks.blocks) counts.push_back(static_cast<int>(b.nodes.size()));
  plan.blocks.block_sizes = choose_block_sizes(counts, release, plan.explanation);
  return plan;
}

BlockPlan plan_blocks_from_groups(const Cluster& cluster, const std::optional<std::vector<std::string>>& slurm_nodes,
                                  SlurmRelease release) {
  BlockPlan plan;
  plan.source = "leaf groups of the InfiniBand fabric (hosts that share their leaf switches); no NVLink domains given";
  for (const Group& g : cluster.groups) {
    BlockLine b;
    b.name = g.name;
    for (int h : g.hosts)
      if (!slurm_nodes || holds(*slurm_nodes, cluster.hosts[h].name)) b.nodes.push_back(cluster.hosts[h].name);
    if (b.nodes.empty()) continue;
    sort_nodes(b.nodes);
    plan.blocks.blocks.push_back(std::move(b));
  }
  std::vector<int> counts;
  for (const auto& b : plan.blocks.blocks) counts.push_back(static_cast<int>(b.nodes.size()));
  plan.blocks.block_sizes = choose_block_sizes(counts, release, plan.explanation);
  return plan;
}

}  // namespace slurmtopo
