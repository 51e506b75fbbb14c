// Switch linear forwarding tables (LFTs): destination LID → out port, per switch, as the subnet
// manager programmed them. Read live (SMP LinearForwardingTable, 64 LIDs per block) or from
// `dump_fts` / `ibroute` text (simulate/network/forwarding_tables.h), carried in the Fabric and in
// snapshots, walked by the simulator's lft routing.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace slurmtopo {

struct ForwardingTables {
  static constexpr uint8_t kNoPort = 255;
  static constexpr int kBlockLids = 64;  // LIDs per LinearForwardingTable SMP block
  std::map<uint64_t /*switch guid*/, std::vector<uint8_t> /*lid→port, 255 = none*/> by_switch;
  bool empty() const { return by_switch.empty(); }
  friend bool operator==(const ForwardingTables&, const ForwardingTables&) = default;
};

// Puts one LinearForwardingTable block (64 ports, LIDs block*64 … block*64+63) into a table
// that ends at the switch's LinearFDBTop: the table grows to top+1 entries (255 = none) and
// the block's entries past top are dropped, as a switch ignores them.
// Throws std::invalid_argument when the block starts past top.
void put_lft_block(std::vector<uint8_t>& table, uint16_t top, int block, const uint8_t (&ports)[64]);

// How many blocks cover LIDs 0..top.
inline int lft_blocks(uint16_t top) { return top / ForwardingTables::kBlockLids + 1; }

}  // namespace slurmtopo
