#include "emit/write_guard.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace slurmtopo;

namespace {
std::vector<std::string> nodes(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back("gpu" + std::to_string(i));
  return out;
}
}  // namespace

TEST_CASE("write guard: up to 5 % of the current nodes may go, more is refused and named") {
  CHECK_FALSE(shrink_refusal(100, nodes(5), "the sweep"));
  const auto refusal = shrink_refusal(100, nodes(6), "the sweep");
  REQUIRE(refusal);
  CHECK(*refusal == "the new file drops 6 of the 100 nodes in the current one (more than 5 %: gpu[1-6]): "
                    "check the sweep, or use --allow-missing");
}

TEST_CASE("write guard: a first file (no current nodes) is never refused") {
  CHECK_FALSE(shrink_refusal(0, {}, "the sweep"));
}
