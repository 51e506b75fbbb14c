// BlockName= / BlockSizes= lines, as topology/block's plugin reads them.
#include "slurm/block_topology.h"

#include <string>

#include "base/input_error.h"
#include "slurm/config_lines.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

bool is_block_topology(std::string_view text) {
  for (const SlurmConfLine& line : read_slurm_conf_lines(text))
    for (auto w : slurm_conf_words(line.text)) {
      const std::string key = ascii_lower(w.substr(0, w.find('=')));
      if (key == "blockname" || key == "blocksizes") return true;
      if (key == "switchname") return false;
    }
  return false;
}

BlockTopology parse_block_topology(std::string_view text, const std::string& file) {
  BlockTopology out;
  out.file = file;
  for (const SlurmConfLine& logical : read_slurm_conf_lines(text)) {
    const int number = logical.number;
    auto ws = slurm_conf_words(logical.text);
    if (ws.empty()) continue;
    BlockLine block;
    block.line = number;
    bool has_nodes = false;
    for (auto w : ws) {
      const size_t eq = w.find('=');
      if (eq == std::string_view::npos) throw InputError(file, number, "expected Key=Value, got '" + std::string(w) + "'");
      const std::string key = ascii_lower(w.substr(0, eq));
      const std::string value(w.substr(eq + 1));
      if (key == "blockname") {
        block.name = value;
      } else if (key == "nodes") {
        has_nodes = true;
        block.nodes = expand_hostlist_at(value, file, number, "unparsable hostlist");
      } else if (key == "blocksizes") {
        out.block_sizes_line = number;
        const auto sizes = block_sizes_of(value);
        if (!sizes) throw InputError(file, number, "Invalid BlockSizes value: " + value);  // Slurm's own message
        out.block_sizes.insert(out.block_sizes.end(), sizes->begin(), sizes->end());
      } else {
        throw InputError(file, number, "unknown key '" + std::string(w.substr(0, eq)) + "' (expected BlockName, Nodes, BlockSizes)");
      }
    }
    if (!block.name.empty()) {
      if (!has_nodes) throw InputError(file, number, "block " + block.name + " hasn't got nodes");
      out.blocks.push_back(std::move(block));
    } else if (has_nodes) {
      throw InputError(file, number, "Nodes= without BlockName=");
    }
  }
  return out;
}

std::optional<std::vector<int>> block_sizes_of(std::string_view value) {
  std::vector<int> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string_view::npos) comma = value.size();
    const std::string item(value.substr(start, comma - start));
    if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(item) <= 0)
      return std::nullopt;
    out.push_back(std::stoi(item));
    start = comma + 1;
  }
  return out;
}

}  // namespace slurmtopo
