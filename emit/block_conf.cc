#include "emit/block_conf.h"

#include <sstream>

#include "base/text.h"
#include "base/version.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

std::vector<std::string> block_header_lines(const BlockPlan& plan) {
  size_t nodes = 0;
  for (const auto& b : plan.blocks.blocks) nodes += b.nodes.size();
  std::vector<std::string> out;
  out.push_back("blocks: " + plan.source);
  out.push_back(counted(plan.blocks.blocks.size(), "block", "blocks") + ", " + counted(nodes, "node", "nodes"));
  for (const auto& why : plan.explanation) out.push_back("BlockSizes: " + why);
  for (const auto& a : plan.anomalies) out.push_back("anomaly: " + a);
  return out;
}

std::string render_block_conf(const BlockPlan& plan, const BlockHeader& header) {
  std::ostringstream out;
  out << "# topology.conf for Slurm's topology/block plugin, written by slurmtopo " << slurmtopo_version() << ".\n"
      << "# Regenerate rather than edit:\n#   " << header.command << "\n"
      << "# for " << header.release << "\n";
  for (const auto& s : header.sources) out << "# " << s << "\n";
  for (const auto& line : block_header_lines(plan)) out << "# " << line << "\n";
  out << "\n";
  for (const auto& b : plan.blocks.blocks) out << "BlockName=" << b.name << " Nodes=" << compress_hostlist(b.nodes) << "\n";
  if (!plan.blocks.block_sizes.empty()) {
    out << "BlockSizes=";
    for (size_t i = 0; i < plan.blocks.block_sizes.size(); ++i) out << (i ? "," : "") << plan.blocks.block_sizes[i];
    out << "\n";
  }
  return out.str();
}

}  // namespace slurmtopo
