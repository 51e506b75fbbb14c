// LinearForwardingTable blocks (64 LIDs each) assembled into a switch's table up to LinearFDBTop.
#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>

#include "discover/lft.h"

using namespace slurmtopo;

namespace {
// Block `b` as a switch would send it: LID l leaves by port (l % 40) + 1.
void block_of(int b, uint8_t (&ports)[64]) {
  for (int i = 0; i < 64; ++i) ports[i] = static_cast<uint8_t>((b * 64 + i) % 40 + 1);
}
}  // namespace

TEST_CASE("lft_blocks: one block per 64 LIDs from LID 0 through LinearFDBTop") {
  CHECK(lft_blocks(0) == 1);
  CHECK(lft_blocks(14) == 1);
  CHECK(lft_blocks(63) == 1);
  CHECK(lft_blocks(64) == 2);
  CHECK(lft_blocks(1349) == 22);
  CHECK(lft_blocks(0xbfff) == 768);
}

TEST_CASE("put_lft_block: blocks land at LID block*64, the table ends at LinearFDBTop") {
  const uint16_t top = 150;  // three blocks, the last one holds LIDs 128..150
  std::vector<uint8_t> table;
  for (int b = 0; b < lft_blocks(top); ++b) {
    uint8_t ports[64];
    block_of(b, ports);
    put_lft_block(table, top, b, ports);
  }
  REQUIRE(table.size() == 151);
  for (int lid = 0; lid <= top; ++lid) CHECK(table[lid] == lid % 40 + 1);
}

TEST_CASE("put_lft_block: blocks in any order, unread LIDs stay 255") {
  std::vector<uint8_t> table;
  uint8_t ports[64];
  block_of(1, ports);
  put_lft_block(table, 100, 1, ports);
  REQUIRE(table.size() == 101);
  CHECK(table[0] == ForwardingTables::kNoPort);
  CHECK(table[63] == ForwardingTables::kNoPort);
  CHECK(table[64] == 64 % 40 + 1);
  CHECK(table[100] == 100 % 40 + 1);
}

TEST_CASE("put_lft_block: a block past LinearFDBTop is refused") {
  std::vector<uint8_t> table;
  uint8_t ports[64] = {};
  CHECK_THROWS_AS(put_lft_block(table, 63, 1, ports), std::invalid_argument);
  CHECK_THROWS_AS(put_lft_block(table, 63, -1, ports), std::invalid_argument);
  CHECK(table.empty());
}
