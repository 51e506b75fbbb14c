#include "discover/lft.h"

#include <stdexcept>
#include <string>

namespace slurmtopo {

void put_lft_block(std::vector<uint8_t>& table, uint16_t top, int block, const uint8_t (&ports)[64]) {
  const long first = static_cast<long>(block) * ForwardingTables::kBlockLids;
  if (block < 0 || first > top)
    throw std::invalid_argument("LFT block " + std::to_string(block) + " starts past LinearFDBTop " +
                                std::to_string(top));
  if (table.size() != static_cast<size_t>(top) + 1) table.resize(static_cast<size_t>(top) + 1, ForwardingTables::kNoPort);
  for (long i = 0; i < ForwardingTables::kBlockLids && first + i <= top; ++i) table[first + i] = ports[i];
}

}  // namespace slurmtopo
