// The blocks topology/block should see (23.11+), and the BlockSizes that go with them:
//   - from NVLink domains (discover/nvlink_domains.h): one block per ClusterUUID[.CliqueId],
//     named block_<domain> as azslurm names them, in the order the domains first appear; a node
//     whose GPUs report no domain, whose GPUs disagree, or that is alone in its domain while
//     the others have several nodes is an anomaly and in no block (never silently blocked); a
//     domain with fewer nodes than the largest is blocked as it is, and said;
//   - else from the InfiniBand fabric: one block per leaf group (hosts that share their leaf
//     switches), in the groups' order.
// BlockSizes follow topology/block's rules: a base block size B, then B×2^k for aggregations
// of 2^k consecutive blocks, up to all of them. Before 25.05 every block needs at least B
// nodes, so B is the smallest block; 25.05 permits gaps, so B is the most common block size.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "discover/nvlink_domains.h"
#include "graph/cluster.h"
#include "graph/finding_kind.h"
#include "slurm/block_topology.h"
#include "slurm/release.h"

namespace slurmtopo {

// What the NVLink domains say is wrong (the nodes.nvlink check, graph/finding_kind.h). The
// block plan decides them because it is what groups nodes by domain; the report shows them.
inline constexpr FindingKind kDomainFindingKinds[] = {
    {"nvlink-domain-unknown", "nodes.nvlink", Severity::Warn,
     "a node's GPUs report no NVLink domain, disagree on it, or the node is missing from --nvlink-domains: it is in "
     "no block, so a block-scheduled job never gets it",
     "hosts"},
    {"nvlink-domain-alone", "nodes.nvlink", Severity::Warn,
     "a node is alone in its NVLink domain where the other domains hold several (a GPU fabric fault or a mis-set "
     "ClusterUUID): it is in no block",
     "hosts"},
    {"nvlink-domain-short", "nodes.nvlink", Severity::Warn,
     "an NVLink domain holds fewer nodes than the largest (trays down, drained or on another ClusterUUID): a job "
     "sized for a whole domain does not fit in it",
     "domains"},
};
enum class DomainFindingKind { Unknown, Alone, Short };
inline const FindingKind& domain_kind(DomainFindingKind k) { return kDomainFindingKinds[static_cast<int>(k)]; }

struct DomainFinding {
  DomainFindingKind kind;
  std::string subject;  // hosts, or the block's name
  std::string detail;
  int count = 1;
};

struct BlockPlan {
  BlockTopology blocks;                 // nodes in Slurm's order; block_sizes empty before 24.05
  std::string source;                   // what the blocks are, for the header
  std::vector<std::string> explanation; // how BlockSizes was chosen, for the header
  std::vector<std::string> anomalies;   // "HOST: why it is in no block"
  std::vector<DomainFinding> findings;  // from NVLink domains: the same, and domains short of their peers
};

// Throws InputError(domains file, line, ...) for a host `known` (sorted by natural_less: the
// fabric's hosts or Slurm's nodes) does not hold; `known` nullopt checks nothing. Known nodes
// missing from the domains are anomalies.
BlockPlan plan_blocks_from_domains(const NvlinkDomains& domains, const std::optional<std::vector<std::string>>& known,
                                   SlurmRelease release);

// `slurm_nodes` (sorted by natural_less) restricts the groups' hosts to Slurm's nodes.
BlockPlan plan_blocks_from_groups(const Cluster& cluster, const std::optional<std::vector<std::string>>& slurm_nodes,
                                  SlurmRelease release);

// BlockSizes for blocks of `counts` nodes (file order), with one line per decision in `why`;
// empty before 24.05 (23.11 has no BlockSizes=; its blocks must all be equal).
std::vector<int> choose_block_sizes(const std::vector<int>& counts, SlurmRelease release, std::vector<std::string>& why);

}  // namespace slurmtopo
