#include "graph/rail_agreement.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("rail agreement: rails that split hosts the same way agree fully") {
  CHECK(rail_agreement({0, 0, 1, 1}, {5, 5, 7, 7}) == doctest::Approx(1.0));
}

TEST_CASE("rail agreement: one switch for everyone agrees one way only") {
  // Every leaf's hosts share the storage switch, but the storage switch's hosts are split.
  CHECK(rail_agreement({0, 0, 1, 1}, {9, 9, 9, 9}) == doctest::Approx(0.5));
}

TEST_CASE("side rails: a storage rail that cuts across units is a side rail") {
  // 8 hosts, compute rails 0 and 1 split them 4/4; the storage rail splits 3/5.
  std::vector<int> compute0{0, 0, 0, 0, 1, 1, 1, 1};
  std::vector<int> compute1{2, 2, 2, 2, 3, 3, 3, 3};
  std::vector<int> storage{8, 8, 8, 9, 9, 9, 9, 9};
  CHECK(side_rails({compute0, compute1, storage}) == std::vector<bool>{false, false, true});
}

TEST_CASE("side rails: with one compute rail, the finer split wins the tie") {
  std::vector<int> compute{0, 0, 1, 1, 2, 2};
  std::vector<int> storage{9, 9, 9, 9, 9, 9};
  CHECK(side_rails({compute, storage}) == std::vector<bool>{false, true});
  CHECK(side_rails({storage, compute}) == std::vector<bool>{true, false});
}

TEST_CASE("side rails: rails of different host models (no common host) are never side") {
  // Hosts 0-3 name their HCAs mlx5_*, hosts 4-7 HCA-*: the rails share no host.
  std::vector<int> mlx{0, 0, 1, 1, -1, -1, -1, -1};
  std::vector<int> hca{-1, -1, -1, -1, 2, 2, 3, 3};
  CHECK(side_rails({mlx, hca}) == std::vector<bool>{false, false});
}

TEST_CASE("side rails: one miscabled host does not make its rail a side rail") {
  std::vector<int> r0(20), r1(20);
  for (int h = 0; h < 20; ++h) r0[h] = h / 10, r1[h] = 2 + h / 10;
  r1[3] = 3;  // host 3's rail 1 cabled into the other unit
  CHECK(side_rails({r0, r1}) == std::vector<bool>{false, false});
}
