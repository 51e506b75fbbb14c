// Shards: every unit in exactly one slice, and a merge that refuses anything but the whole
// run.
#include "simulate/whatif/whatif_shards.h"

#include <doctest/doctest.h>

#include "base/input_error.h"

using namespace slurmtopo;
using json = nlohmann::ordered_json;

namespace {

std::string shard_text(int i, int n, int total, const std::vector<int>& units, int seed = 1) {
  json header = {{"mode", "edits"}, {"seed", seed}, {"units", total}};
  std::vector<json> records;
  for (int u : units) records.push_back({{"unit", u}, {"x", u * 10}});
  return shard_document(header, {i, n}, records).dump();
}

}  // namespace

TEST_CASE("whatif shards: i/N parsing") {
  CHECK(parse_shard("0/4").index == 0);
  CHECK(parse_shard("3/4").count == 4);
  for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/2", "1/2/3", ""})
    CHECK_THROWS_WITH_AS(parse_shard(bad), doctest::Contains("--shard"), InputError);
}

TEST_CASE("whatif shards: the slices cover every unit once, in order") {
  for (int total : {0, 1, 7, 100})
    for (int n : {1, 3, 8}) {
      std::vector<int> all;
      for (int i = 0; i < n; ++i)
        for (int u : shard_units(total, {i, n})) all.push_back(u);
      std::vector<int> expected(total);
      for (int u = 0; u < total; ++u) expected[u] = u;
      CHECK(all == expected);
    }
  CHECK(shard_units(7, {1, 3}) == std::vector<int>{2, 3});
}

TEST_CASE("whatif shards: merge gives the records in unit order") {
  const MergedRun m = merge_shards({{"b", shard_text(1, 2, 4, {2, 3})}, {"a", shard_text(0, 2, 4, {0, 1})}});
  REQUIRE(m.records.size() == 4);
  for (int u = 0; u < 4; ++u) CHECK(m.records[u]["x"] == u * 10);
  CHECK(m.header["seed"] == 1);
}

TEST_CASE("whatif shards: merge refuses what is not the whole run") {
  auto error_of = [](const std::vector<std::pair<std::string, std::string>>& s) {
    try {
      merge_shards(s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of({{"a", shard_text(0, 2, 4, {0, 1})}}) == "a: units missing from the shards given: 2, 3");
  CHECK(error_of({{"a", shard_text(0, 2, 4, {0, 1})}, {"b", shard_text(0, 2, 4, {0, 1})}}) ==
        "b: unit 0 is in two shards");
  CHECK(error_of({{"a", shard_text(0, 2, 4, {0, 1})}, {"b", shard_text(1, 2, 4, {2, 3}, 2)}}).find(
            "b: a shard of another run than a") == 0);
  CHECK(error_of({{"a", "{\"x\": 1}"}}).find("a: not a whatif shard") == 0);
  CHECK(error_of({{"a", "garbage"}}).find("a: not a whatif shard") == 0);
  CHECK(error_of({{"a", shard_text(0, 1, 2, {0, 1, 5})}}) == "a: unit 5 is not in this run");
  CHECK(error_of({}).find("expected at least one shard") != std::string::npos);
}
