#include "emit/block_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "base/text.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// topology/block has 16 block levels: a BlockSizes value is at most the base size times 2^15.
constexpr int kMaxBlockSizeMultiple = 1 << 15;
constexpr size_t kMaxBlockName = 64;

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

std::string summary(std::vector<std::string> names) {
  std::string list = compress_hostlist(std::move(names));
  return list.size() > 200 ? list.substr(0, 200) + "…" : list;
}
}  // namespace

TopologyCheck check_blocks(const BlockTopology& p, const BlockCheckOptions& options) {
  TopologyCheck out;
  if (p.blocks.empty()) {
    out.errors.push_back({0, "no blocks: topology/block would have nothing to place jobs in"});
    return out;
  }
  std::set<std::string> names;
  std::map<std::string, std::string> block_of;
  for (const BlockLine& b : p.blocks) {
    if (!names.insert(b.name).second) out.errors.push_back({b.line, "Block (" + b.name + ") has already been defined"});
    if (b.name.size() > kMaxBlockName) out.errors.push_back({b.line, "BlockName longer than 64 characters: " + b.name});
    if (!valid_name(b.name))
      out.errors.push_back({b.line, "BlockName '" + b.name + "' is not letters, digits, '-', '_' and '.'"});
    if (b.nodes.empty()) out.errors.push_back({b.line, "block " + b.name + " hasn't got nodes"});
    for (const auto& n : b.nodes) {
      auto [it, fresh] = block_of.emplace(n, b.name);
      if (!fresh)
        out.errors.push_back({b.line, "node " + n + " is in blocks " + it->second + " and " + b.name +
                                          " (slurmctld would silently keep it in one)"});
    }
  }

  const bool has_sizes_option = options.release >= introduced_in(TopologyForm::BlockSizes);
  if (!p.block_sizes.empty() && !has_sizes_option)
    out.errors.push_back({p.block_sizes_line, "BlockSizes= needs Slurm 24.05 or later (added in 24.05); Slurm " +
                                                  to_string(options.release) + " has BlockLevels= instead"});
  if (!has_sizes_option) {
    for (const BlockLine& b : p.blocks)
      if (b.nodes.size() != p.blocks.front().nodes.size()) {
        out.errors.push_back({b.line, "block " + b.name + " has " + std::to_string(b.nodes.size()) + " nodes, " +
                                          p.blocks.front().name + " " + std::to_string(p.blocks.front().nodes.size()) +
                                          ": Slurm " + to_string(options.release) + " needs blocks of one size"});
        break;
      }
  }
  const int base = p.block_sizes.empty() ? static_cast<int>(p.blocks.front().nodes.size()) : p.block_sizes.front();
  // slurmctld's own test (topology/block's block_record.c, 24.05 to 26.05): each size is the
  // first one times 2^k with k below MAX_BLOCK_LEVELS (16); their order does not matter (each
  // sets one level). Anything else is fatal, and from 26.05.3 in topology.yaml too.
  for (const int s : p.block_sizes) {
    const int multiple = base > 0 && s > 0 && s % base == 0 ? s / base : 0;
    if (multiple == 0 || (multiple & (multiple - 1)) != 0 || multiple > kMaxBlockSizeMultiple) {
      std::string list;
      for (int v : p.block_sizes) list += (list.empty() ? "" : ",") + std::to_string(v);
      out.errors.push_back({p.block_sizes_line, "Invalid BlockSizes value: " + list + " (expected " + std::to_string(base) +
                                                    " times a power of two up to 2^15, as slurmctld reads them)"});
      break;
    }
  }
  if (!blocks_may_have_gaps(options.release))
    for (const BlockLine& b : p.blocks)
      if (static_cast<int>(b.nodes.size()) < base)
        out.errors.push_back({b.line, "block " + b.name + " has " + std::to_string(b.nodes.size()) +
                                          " nodes, fewer than the base block size " + std::to_string(base) +
                                          " (allowed from 25.05; the files are for " + to_string(options.release) + ")"});

  if (options.slurm_nodes) {
    const auto& known = *options.slurm_nodes;
    std::vector<std::string> unknown, orphans;
    for (const auto& [n, block] : block_of)
      if (!std::binary_search(known.begin(), known.end(), n, [](const auto& a, const auto& b) { return natural_less(a, b); }))
        unknown.push_back(n);
    for (const auto& n : known)
      if (!block_of.count(n)) orphans.push_back(n);
    if (!unknown.empty()) out.warnings.push_back({0, "nodes in blocks but not in slurm.conf: " + summary(unknown)});
    if (!orphans.empty())
      out.warnings.push_back({0, counted(orphans.size(), "Slurm node", "Slurm nodes") + " in no block (topology/block never allocates them): " +
                                     summary(orphans)});
  }
  return out;
}

}  // namespace slurmtopo
